internal import RelaunchContract

/// The state JSON's `lastExit`: `{"permission": "camera", "old": "denied", "new": "allowed"}`.
extension LastExit: Encodable {
    private enum Key: String, CodingKey { case permission, old, new }

    /// Encodes the permission and both states by their names.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(permission.rawValue, forKey: .permission)
        try container.encode(old.rawValue, forKey: .old)
        try container.encode(new.rawValue, forKey: .new)
    }
}
