/// A JSON value: what an app's state JSON (`State()`) holds, its own keys (`modal.venue` in
/// checkin-demo, say) included. RelaunchTesting names it `JSONValue`.
public enum JSONValue: Sendable, Hashable, Decodable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The member `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// The value at a dot-separated key path (`modal.partySize`), or nil when absent. A segment in
    /// double quotes may hold dots and slashes (`restoredVia."TabViewController/CheckInViewController"`);
    /// a number indexes an array (`paths.0`).
    public func value(at path: String) -> JSONValue? {
        var current: JSONValue? = self
        for key in Self.segments(path) {
            switch current {
            case .object(let members)?: current = members[key]
            case .array(let items)?: current = Int(key).flatMap { items.indices.contains($0) ? items[$0] : nil }
            default: return nil
            }
        }
        return current
    }

    /// The segments of a key path: split at dots outside double quotes, the quotes dropped.
    package static func segments(_ path: String) -> [String] {
        var segments: [String] = []
        var current = ""
        var quoted = false
        for character in path {
            if character == "\"" {
                quoted.toggle()
            } else if character == "." && !quoted {
                segments.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        segments.append(current)
        return segments
    }

    /// The string, or nil for any other kind of value.
    public var string: String? { if case .string(let text) = self { text } else { nil } }
    /// The number, or nil for any other kind of value.
    public var number: Double? { if case .number(let value) = self { value } else { nil } }
    /// The number as an integer when it is one, else nil.
    public var int: Int? { number.flatMap { Int(exactly: $0) } }
    /// The Boolean, or nil for any other kind of value.
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// Whether it is `null`.
    public var isNull: Bool { self == .null }

    /// The value as JSON-like text, for messages.
    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .number(let value): Int(exactly: value).map(String.init) ?? String(value)
        case .string(let text): "\"\(text)\""
        case .array(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.keys.sorted().map { "\"\($0)\": \(members[$0]!)" }.joined(separator: ", ") + "}"
        }
    }
}
