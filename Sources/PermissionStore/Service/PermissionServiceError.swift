/// Why a request was refused or failed, as a D-Bus error name and a message for people.
package enum PermissionServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The caller may not do this (Set and Reset need uid 0).
    case accessDenied(String)
    /// An app id, permission or state is not accepted; the message lists what is.
    case invalidArgs(String)
    /// The store or the kill failed; the message says what happened and what to do.
    case failed(String)
    /// The caller has too much waiting already (a flood costs the flooder); it may try again later.
    case limitsExceeded(String)

    /// `org.freedesktop.DBus.Error.AccessDenied`.
    package static let accessDeniedName = "org.freedesktop.DBus.Error.AccessDenied"
    /// `org.freedesktop.DBus.Error.InvalidArgs`.
    package static let invalidArgsName = "org.freedesktop.DBus.Error.InvalidArgs"
    /// `org.relaunch.Permissions1.Error.Failed`.
    package static let failedName = "org.relaunch.Permissions1.Error.Failed"
    /// `org.freedesktop.DBus.Error.LimitsExceeded`.
    package static let limitsExceededName = "org.freedesktop.DBus.Error.LimitsExceeded"

    /// The D-Bus error name to reply with.
    package var dbusName: String {
        switch self {
        case .accessDenied: Self.accessDeniedName
        case .invalidArgs: Self.invalidArgsName
        case .failed: Self.failedName
        case .limitsExceeded: Self.limitsExceededName
        }
    }

    /// The message to reply with: what failed and what to do.
    package var message: String {
        switch self {
        case .accessDenied(let message), .invalidArgs(let message), .failed(let message), .limitsExceeded(let message):
            message
        }
    }

    /// `NAME: message`.
    package var description: String { "\(dbusName): \(message)" }
}
