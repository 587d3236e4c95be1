/// The dimming behind the check-in modal (the seed's `UIVisualEffectView`).
public enum VisualEffect: String, Sendable {
    /// A dark blur over the presenter.
    case dimmedBlur
}

/// A view holding a visual effect, nil until someone sets it.
final class OverlayView {
    var effect: VisualEffect?
}
