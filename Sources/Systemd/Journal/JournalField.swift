/// One `NAME=value` pair of a journal entry as it is sent to journald.
public struct JournalField: Sendable, Hashable, CustomStringConvertible {
    /// The field name; valid per ``JournalFieldName/isValid(_:)`` when built by this library.
    public var name: String
    /// The value; may contain newlines.
    public var value: String

    /// Pairs a name with a value.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `NAME=value`, the form `sd_journal_sendv` takes.
    public var description: String { "\(name)=\(value)" }
}

extension Array where Element == JournalField {
    /// The value of the first field named `name`, if any.
    public func first(named name: String) -> String? {
        first { $0.name == name }?.value
    }
}
