/// An on/off control (`UISwitch`): its state is restored.
///
/// A switch that stands for a setting belongs in the app's data model, not in the restoration
/// archive (seed 004 keeps it in the user defaults); give such a switch no restoration identifier.
open class Switch: View {
    /// The key of the switch's state in the saved state.
    public static let isOnKey = "Switch.isOn"

    /// Whether it is on.
    public var isOn = false

    /// A switch that is off.
    public override init() { super.init() }

    /// Saves whether it is on; call `super` when overriding.
    open override func encodeRestorableState(with coder: inout StateCoder) {
        super.encodeRestorableState(with: &coder)
        coder.encode(isOn, forKey: Self.isOnKey)
    }

    /// Restores whether it is on; call `super` when overriding.
    open override func decodeRestorableState(with coder: StateCoder) {
        super.decodeRestorableState(with: coder)
        if let saved = coder.decodeBool(forKey: Self.isOnKey) { isOn = saved }
    }
}
