/// A scrolled area (`UIScrollView`): its content offset is restored.
open class ScrollView: View {
    /// The key of the content offset's x in the saved state.
    public static let contentOffsetXKey = "ScrollView.contentOffset.x"
    /// The key of the content offset's y in the saved state.
    public static let contentOffsetYKey = "ScrollView.contentOffset.y"

    /// How far the content is scrolled, in points.
    public var contentOffset: (x: Double, y: Double) = (0, 0)

    /// A scroll view at offset zero.
    public override init() { super.init() }

    /// Saves the content offset; call `super` when overriding.
    open override func encodeRestorableState(with coder: inout StateCoder) {
        super.encodeRestorableState(with: &coder)
        coder.encode(contentOffset.x, forKey: Self.contentOffsetXKey)
        coder.encode(contentOffset.y, forKey: Self.contentOffsetYKey)
    }

    /// Restores the content offset; call `super` when overriding.
    open override func decodeRestorableState(with coder: StateCoder) {
        super.decodeRestorableState(with: coder)
        if let x = coder.decodeDouble(forKey: Self.contentOffsetXKey), let y = coder.decodeDouble(forKey: Self.contentOffsetYKey) {
            contentOffset = (x, y)
        }
    }
}
