/// A privacy permission an app can hold, as Settings lists them.
public enum Permission: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case camera
    case microphone
    case photos
    case contacts
    case calendars
    case location
    /// Notifications: on iOS a change is seen in place, never a kill (docs/PERMISSIONS.md).
    case notifications

    /// Every accepted name, comma-separated, for error messages.
    public static let acceptedNames = allCases.map(\.rawValue).joined(separator: ", ")

    public var description: String { rawValue }
}

/// The state of one permission for one app.
///
/// `allowed`, `denied` and `not-determined` exist for every permission under every profile and keep
/// the meaning they always had (full access, no access, never asked). The other states exist only
/// for the permissions of the profiles that list them (``PermissionProfile``, docs/PERMISSIONS.md).
public enum PermissionState: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// Full access (photos "full", contacts "full", calendars "full", location "while using" with
    /// precise location on, notifications delivered and shown).
    case allowed
    /// No access (photos and contacts "none", location "never").
    case denied
    /// Never asked.
    case notDetermined = "not-determined"
    /// Photos or contacts: only what the user selected.
    case limited
    /// Photos: may add to the library, may not read it.
    case addOnly = "add-only"
    /// Calendars: may add events, may not read them.
    case writeOnly = "write-only"
    /// Location: while using the app, precise location off.
    case whileUsingApproximate = "while-using-approximate"
    /// Location: always (in the background too), precise location on.
    case always
    /// Location: always, precise location off.
    case alwaysApproximate = "always-approximate"
    /// Notifications: delivered quietly to the notification centre, never shown as alerts.
    case provisional
    /// Android's one-time grant ("only this time"): revoked once the app has stayed in the
    /// background for the profile's delay.
    case allowedOnce = "allowed-once"

    /// Every accepted name, comma-separated, for error messages.
    public static let acceptedNames = allCases.map(\.rawValue).joined(separator: ", ")

    public var description: String { rawValue }

    /// Whether this state gives the app some access (anything but `denied` and `not-determined`).
    public var grantsAccess: Bool { self != .denied && self != .notDetermined }

    /// Location: whether precise location is off in this state.
    public var isApproximate: Bool { self == .whileUsingApproximate || self == .alwaysApproximate }
}
