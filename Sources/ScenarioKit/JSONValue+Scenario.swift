package import RelaunchContract

extension JSONValue {
    /// The value as a scenario compares it: strings bare, integers without a fraction, `null`.
    package var scalarText: String {
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
}
