/// The values of a message body (method arguments, a reply, a signal) with typed, throwing readers.
///
/// Readers throw ``BusError`` `org.freedesktop.DBus.Error.InvalidArgs` naming the position and the
/// expected and actual types, so a handler can let a bad argument propagate as its error reply.
package struct BusValues: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// The values in order.
    package var values: [BusValue]

    /// Wraps values.
    package init(_ values: [BusValue]) { self.values = values }

    /// Wraps literal values.
    package init(arrayLiteral elements: BusValue...) { self.values = elements }

    /// The signature of the whole body, e.g. `ssssb`.
    package var signature: String { values.map(\.signature).joined() }

    /// The first index (0).
    package var startIndex: Int { values.startIndex }
    /// One past the last index.
    package var endIndex: Int { values.endIndex }
    /// The value at `position`.
    package subscript(position: Int) -> BusValue { values[position] }

    /// The `s` (or `o`/`g`) at `index`.
    package func string(at index: Int) throws(BusError) -> String {
        try read(index, "s") { $0.stringValue }
    }

    /// The `b` at `index`.
    package func bool(at index: Int) throws(BusError) -> Bool {
        try read(index, "b") { $0.boolValue }
    }

    /// The `u` at `index`.
    package func uint32(at index: Int) throws(BusError) -> UInt32 {
        try read(index, "u") { if case .uint32(let value) = $0 { value } else { nil } }
    }

    /// The `i` at `index`.
    package func int32(at index: Int) throws(BusError) -> Int32 {
        try read(index, "i") { if case .int32(let value) = $0 { value } else { nil } }
    }

    /// The `t` at `index` (or any smaller unsigned integer).
    package func uint64(at index: Int) throws(BusError) -> UInt64 {
        try read(index, "t") { $0.uint64Value }
    }

    /// The `as` at `index`.
    package func stringArray(at index: Int) throws(BusError) -> [String] {
        try read(index, "as") { $0.stringArrayValue }
    }

    /// The `a{ss}` at `index`.
    package func stringDictionary(at index: Int) throws(BusError) -> [String: String] {
        try read(index, "a{ss}") { $0.stringDictionaryValue }
    }

    /// The `ay` at `index`.
    package func bytes(at index: Int) throws(BusError) -> [UInt8] {
        try read(index, "ay") { $0.bytesValue }
    }

    /// The `o` at `index`.
    package func objectPath(at index: Int) throws(BusError) -> String {
        try read(index, "o") { if case .objectPath(let path) = $0 { path } else { nil } }
    }

    /// The elements of the array at `index`, whatever their type (e.g. `a(sss)`).
    package func array(at index: Int) throws(BusError) -> [BusValue] {
        try read(index, "a…") { if case .array(_, let elements) = $0 { elements } else { nil } }
    }

    /// The fields of the struct at `index`, e.g. `(bs)`, as values to read in turn.
    package func structure(at index: Int) throws(BusError) -> BusValues {
        try read(index, "(…)") { if case .structure(let fields) = $0 { BusValues(fields) } else { nil } }
    }

    /// The content of the `v` at `index`.
    package func variant(at index: Int) throws(BusError) -> BusValue {
        try read(index, "v") { if case .variant(let inner) = $0 { inner } else { nil } }
    }

    private func read<T>(_ index: Int, _ expected: String, _ extract: (BusValue) -> T?) throws(BusError) -> T {
        guard values.indices.contains(index) else {
            throw .invalidArgs("expected \(expected) at position \(index), but the message has only \(values.count) value(s) (\(signature))")
        }
        guard let value = extract(values[index]) else {
            throw .invalidArgs("expected \(expected) at position \(index), got \(values[index].signature)")
        }
        return value
    }
}
