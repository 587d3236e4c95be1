import CSystemd

// Internal: BusValue ↔ sd_bus_message. Callers hold the connection's lock (or are on its thread).

/// Appends `values` to the message `m`; returns 0 or `-errno`.
func busAppend(_ m: OpaquePointer, _ values: [BusValue]) -> Int32 {
    for value in values {
        let result = busAppend(m, value)
        if result < 0 { return result }
    }
    return 0
}

private func busAppend(_ m: OpaquePointer, _ value: BusValue) -> Int32 {
    func basic<T: BitwiseCopyable>(_ type: Character, _ value: T) -> Int32 {
        withUnsafePointer(to: value) { sd_bus_message_append_basic(m, type.cChar, $0) }
    }
    func container(_ type: Character, _ contents: String, _ inner: [BusValue]) -> Int32 {
        var result = sd_bus_message_open_container(m, type.cChar, contents)
        if result < 0 { return result }
        result = busAppend(m, inner)
        if result < 0 { return result }
        return sd_bus_message_close_container(m)
    }
    switch value {
    case .string(let text): return text.withCString { sd_bus_message_append_basic(m, Character("s").cChar, $0) }
    case .objectPath(let text): return text.withCString { sd_bus_message_append_basic(m, Character("o").cChar, $0) }
    case .signature(let text): return text.withCString { sd_bus_message_append_basic(m, Character("g").cChar, $0) }
    case .bool(let flag): return basic("b", Int32(flag ? 1 : 0))
    case .byte(let number): return basic("y", number)
    case .int16(let number): return basic("n", number)
    case .uint16(let number): return basic("q", number)
    case .int32(let number): return basic("i", number)
    case .uint32(let number): return basic("u", number)
    case .int64(let number): return basic("x", number)
    case .uint64(let number): return basic("t", number)
    case .double(let number): return basic("d", number)
    case .array(let element, let items): return container("a", element, items)
    case .dictEntry(let key, let item): return container("e", key.signature + item.signature, [key, item])
    case .structure(let fields): return container("r", fields.map(\.signature).joined(), fields)
    case .variant(let inner): return container("v", inner.signature, [inner])
    }
}

/// Reads every remaining value at the current level of `m`; returns `-errno` on failure.
func busRead(_ m: OpaquePointer) -> Result<[BusValue], BusError> {
    var values: [BusValue] = []
    while true {
        var type: CChar = 0
        var contentsPointer: UnsafePointer<CChar>?
        let peeked = sd_bus_message_peek_type(m, &type, &contentsPointer)
        if peeked < 0 { return .failure(BusError(errno: -peeked, operation: "sd_bus_message_peek_type")) }
        if peeked == 0 { return .success(values) }
        let contents = contentsPointer.map { String(cString: $0) } ?? ""
        switch busReadOne(m, Character(Unicode.Scalar(UInt8(bitPattern: type))), contents) {
        case .success(let value): values.append(value)
        case .failure(let error): return .failure(error)
        }
    }
}

private func busReadOne(_ m: OpaquePointer, _ type: Character, _ contents: String) -> Result<BusValue, BusError> {
    func basic<T: BitwiseCopyable>(_ initial: T) -> Result<T, BusError> {
        var value = initial
        let result = sd_bus_message_read_basic(m, type.cChar, &value)
        return result < 0 ? .failure(BusError(errno: -result, operation: "sd_bus_message_read_basic")) : .success(value)
    }
    func text() -> Result<String, BusError> {
        basic(UnsafePointer<CChar>?.none).map { $0.map { String(cString: $0) } ?? "" }
    }
    func inner() -> Result<[BusValue], BusError> {
        let entered = sd_bus_message_enter_container(m, type.cChar, contents)
        if entered < 0 { return .failure(BusError(errno: -entered, operation: "sd_bus_message_enter_container")) }
        let values = busRead(m)
        let exited = sd_bus_message_exit_container(m)
        if exited < 0 { return .failure(BusError(errno: -exited, operation: "sd_bus_message_exit_container")) }
        return values
    }
    switch type {
    case "s": return text().map { .string($0) }
    case "o": return text().map { .objectPath($0) }
    case "g": return text().map { .signature($0) }
    case "b": return basic(Int32(0)).map { .bool($0 != 0) }
    case "y": return basic(UInt8(0)).map { .byte($0) }
    case "n": return basic(Int16(0)).map { .int16($0) }
    case "q": return basic(UInt16(0)).map { .uint16($0) }
    case "i": return basic(Int32(0)).map { .int32($0) }
    case "u": return basic(UInt32(0)).map { .uint32($0) }
    case "x": return basic(Int64(0)).map { .int64($0) }
    case "t": return basic(UInt64(0)).map { .uint64($0) }
    case "d": return basic(Double(0)).map { .double($0) }
    case "a": return inner().map { .array(elementSignature: contents, $0) }
    case "r": return inner().map { .structure($0) }
    case "e":
        return inner().flatMap { pair in
            pair.count == 2 ? .success(.dictEntry(pair[0], pair[1]))
                : .failure(.invalidArgs("dictionary entry with \(pair.count) values"))
        }
    case "v": return inner().map { .variant($0.first ?? .structure([])) }
    default:
        return .failure(.invalidArgs("unsupported D-Bus type '\(type)' (file descriptors are not handled)"))
    }
}

extension Character {
    /// The ASCII code of a D-Bus type character, as sd-bus takes it.
    var cChar: CChar { CChar(bitPattern: asciiValue ?? 0) }
}
