/// The values of a message body (method arguments, a reply, a signal) with typed, throwing readers.
///
/// Readers throw ``BusError`` `org.freedesktop.DBus.Error.InvalidArgs` naming the position and the
/// expected and actual types, so a handler can let a bad argument propagate as its error reply.
public struct BusValues: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// The values in order.
    public var values: [BusValue]

    /// Wraps values.
    public init(_ values: [BusValue]) { self.values = values }

    /// Wraps literal values.
    public init(arrayLiteral elements: BusValue...) { self.values = elements }

    /// The signature of the whole body, e.g. `ssssb`.
    public var signature: String { values.map(\.signature).joined() }

    /// The first index (0).
    public var startIndex: Int { values.startIndex }
    /// One past the last index.
    public var endIndex: Int { values.endIndex }
    /// The value at `position`.
    public subscript(position: Int) -> BusValue { values[position] }

    /// The `s` (or `o`/`g`) at `index`.
    public func string(at index: Int) throws(BusError) -> String {
        try read(index, "s") { $0.stringValue }
    }

    /// The `b` at `index`.
    public func bool(at index: Int) throws(BusError) -> Bool {
        try read(index, "b") { $0.boolValue }
    }

    /// The `u` at `index`.
    public func uint32(at index: Int) throws(BusError) -> UInt32 {
        try read(index, "u") { if case .uint32(let value) = $0 { value } else { nil } }
    }

    /// The `i` at `index`.
    public func int32(at index: Int) throws(BusError) -> Int32 {
        try read(index, "i") { if case .int32(let value) = $0 { value } else { nil } }
    }

    /// The `t` at `index` (or any smaller unsigned integer).
    public func uint64(at index: Int) throws(BusError) -> UInt64 {
        try read(index, "t") { $0.uint64Value }
    }

    /// The `as` at `index`.
    public func stringArray(at index: Int) throws(BusError) -> [String] {
        try read(index, "as") { $0.stringArrayValue }
    }

    /// The `a{ss}` at `index`.
    public func stringDictionary(at index: Int) throws(BusError) -> [String: String] {
        try read(index, "a{ss}") { $0.stringDictionaryValue }
    }

    /// The `ay` at `index`.
    public func bytes(at index: Int) throws(BusError) -> [UInt8] {
        try read(index, "ay") { $0.bytesValue }
    }

    /// The `o` at `index`.
    public func objectPath(at index: Int) throws(BusError) -> String {
        try read(index, "o") { if case .objectPath(let path) = $0 { path } else { nil } }
    }

    /// The elements of the array at `index`, whatever their type (e.g. `a(sss)`).
    public func array(at index: Int) throws(BusError) -> [BusValue] {
        try read(index, "a…") { if case .array(_, let elements) = $0 { elements } else { nil } }
    }

    /// The fields of the struct at `index`, e.g. `(bs)`, as values to read in turn.
    public func structure(at index: Int) throws(BusError) -> BusValues {
        try read(index, "(…)") { if case .structure(let fields) = $0 { BusValues(fields) } else { nil } }
    }

    /// The content of the `v` at `index`.
    public func variant(at index: Int) throws(BusError) -> BusValue {
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
