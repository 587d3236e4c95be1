/// A privacy permission an app can hold, as Settings lists them.
public enum Permission: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case camera
    case microphone
    case photos
    case contacts
    case calendars
    case location

    /// Every accepted name, comma-separated, for error messages.
    public static let acceptedNames = allCases.map(\.rawValue).joined(separator: ", ")

    public var description: String { rawValue }
}

/// The state of one permission for one app.
public enum PermissionState: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case allowed
    case denied
    case notDetermined = "not-determined"

    /// Every accepted name, comma-separated, for error messages.
    public static let acceptedNames = allCases.map(\.rawValue).joined(separator: ", ")

    public var description: String { rawValue }
}
