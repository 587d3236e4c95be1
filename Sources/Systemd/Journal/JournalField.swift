/// One `NAME=value` pair of a journal entry as it is sent to journald.
package struct JournalField: Sendable, Hashable, CustomStringConvertible {
    /// The field name; valid per ``JournalFieldName/isValid(_:)`` when built by this library.
    package var name: String
    /// The value; may contain newlines.
    package var value: String

    /// Pairs a name with a value.
    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `NAME=value`, the form `sd_journal_sendv` takes.
    package var description: String { "\(name)=\(value)" }
}

extension Array where Element == JournalField {
    /// The value of the first field named `name`, if any.
    package func first(named name: String) -> String? {
        first { $0.name == name }?.value
    }
}
