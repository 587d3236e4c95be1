/// Which permission changes kill a running app.
package enum KillPolicy: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// iOS: any change of any permission but `location` kills the app.
    case ios
    /// Android: only a revoke (a change away from `allowed`) kills the app.
    case android

    package var description: String { rawValue }

    /// Whether changing `permission` from `old` to `new` kills a running app under this policy.
    ///
    /// A "change" that leaves the state as it was never kills.
    package func kills(_ permission: Permission, from old: PermissionState, to new: PermissionState) -> Bool {
        guard old != new else { return false }
        switch self {
        case .ios:
            return permission != .location
        case .android:
            return old == .allowed
        }
    }
}
