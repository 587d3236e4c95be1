/// Editable text (`UITextView`): its text and selection are restored.
open class TextView: ScrollView {
    /// The key of the text in the saved state.
    public static let textKey = "TextView.text"
    /// The key of the selection's start and length (in characters) in the saved state.
    public static let selectionKey = "TextView.selectedRange"

    /// The text.
    public var text = "" {
        didSet {
            let count = text.count
            selectedRange = min(selectedRange.lowerBound, count)..<min(selectedRange.upperBound, count)
        }
    }
    /// The selection (or the caret, when empty), in characters.
    public var selectedRange: Range<Int> = 0..<0

    /// An empty text view.
    public override init() { super.init() }

    /// Saves the text and selection; call `super` when overriding.
    open override func encodeRestorableState(with coder: inout StateCoder) {
        super.encodeRestorableState(with: &coder)
        coder.encode(text, forKey: Self.textKey)
        coder.encode([String(selectedRange.lowerBound), String(selectedRange.count)], forKey: Self.selectionKey)
    }

    /// Restores the text, then the selection if it still fits in it; call `super` when overriding.
    open override func decodeRestorableState(with coder: StateCoder) {
        super.decodeRestorableState(with: coder)
        if let saved = coder.decodeString(forKey: Self.textKey) { text = saved }
        if let parts = coder.decodeStrings(forKey: Self.selectionKey), parts.count == 2,
            let start = Int(parts[0]), let length = Int(parts[1]), start >= 0, length >= 0, start + length <= text.count
        {
            selectedRange = start..<(start + length)
        }
    }
}
