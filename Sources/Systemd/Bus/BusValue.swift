/// A D-Bus value: what method arguments, replies, signals and properties are made of.
///
/// Arrays carry their element signature so empty arrays still have a type.
/// `a{ss}` is an ``array(elementSignature:_:)`` of ``dictEntry(_:_:)``s; build one with
/// ``stringDictionary(_:)``.
package indirect enum BusValue: Sendable, Hashable {
    /// `s`
    case string(String)
    /// `o`
    case objectPath(String)
    /// `g`
    case signature(String)
    /// `b`
    case bool(Bool)
    /// `y`
    case byte(UInt8)
    /// `n`
    case int16(Int16)
    /// `q`
    case uint16(UInt16)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `a…`: elements all of `elementSignature`.
    case array(elementSignature: String, [BusValue])
    /// `{kv}`: one entry of a dictionary array.
    case dictEntry(BusValue, BusValue)
    /// `(…)`
    case structure([BusValue])
    /// `v`
    case variant(BusValue)

    /// The D-Bus type signature of this value, e.g. `a{ss}` or `(bs)`.
    package var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .bool: "b"
        case .byte: "y"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .array(let element, _): "a" + element
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// `as` from Swift strings.
    package static func stringArray(_ strings: [String]) -> BusValue {
        .array(elementSignature: "s", strings.map { .string($0) })
    }

    /// `a{ss}` from a Swift dictionary, entries sorted by key.
    package static func stringDictionary(_ dictionary: [String: String]) -> BusValue {
        .array(elementSignature: "{ss}", dictionary.sorted { $0.key < $1.key }.map { .dictEntry(.string($0.key), .string($0.value)) })
    }

    /// `ay` from bytes.
    package static func bytes(_ bytes: [UInt8]) -> BusValue {
        .array(elementSignature: "y", bytes.map { .byte($0) })
    }

    /// The text of an `s`, `o` or `g` value.
    package var stringValue: String? {
        switch self {
        case .string(let text), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }

    /// The fields of a struct, or nil.
    package var structureValue: [BusValue]? {
        if case .structure(let fields) = self { fields } else { nil }
    }

    /// The value of a `b`, or nil.
    package var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// Any unsigned or non-negative signed integer as `UInt64`.
    package var uint64Value: UInt64? {
        switch self {
        case .byte(let value): UInt64(value)
        case .uint16(let value): UInt64(value)
        case .uint32(let value): UInt64(value)
        case .uint64(let value): value
        case .int16(let value): UInt64(exactly: value)
        case .int32(let value): UInt64(exactly: value)
        case .int64(let value): UInt64(exactly: value)
        default: nil
        }
    }

    /// The elements of an `as`.
    package var stringArrayValue: [String]? {
        guard case .array("s", let items) = self else { return nil }
        return items.compactMap(\.stringValue)
    }

    /// The entries of an `a{ss}`.
    package var stringDictionaryValue: [String: String]? {
        guard case .array("{ss}", let items) = self else { return nil }
        var result: [String: String] = [:]
        for case .dictEntry(.string(let key), .string(let value)) in items { result[key] = value }
        return result
    }

    /// The bytes of an `ay`.
    package var bytesValue: [UInt8]? {
        guard case .array("y", let items) = self else { return nil }
        return items.compactMap { if case .byte(let byte) = $0 { byte } else { nil } }
    }
}

extension BusValue: ExpressibleByStringLiteral {
    /// A string literal is an `s`.
    package init(stringLiteral value: String) { self = .string(value) }
}

extension BusValue: ExpressibleByBooleanLiteral {
    /// A boolean literal is a `b`.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
}
