/// A parsed JSON value, for reading `relaunchctl app state --json` by key path.
public enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

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

    /// The value at a dot-separated key path; a segment in double quotes may contain dots and
    /// slashes (`restoredVia."A/B"`); a number indexes an array. Nil when absent.
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

    /// The value as a scenario compares it: strings bare, integers without a fraction, `null`.
    public var scalarText: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let value):
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value): value
        case .array(let items): "[" + items.map(\.scalarText).joined(separator: ",") + "]"
        case .object(let members): "{" + members.keys.sorted().joined(separator: ",") + "}"
        }
    }

    static func segments(_ path: String) -> [String] {
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
}
