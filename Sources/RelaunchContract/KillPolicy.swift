/// The name of a permission profile (``PermissionProfile``), which says which permission changes
/// kill a running app. `KillPolicy=` in an apps.d file and `kill-policy` in permissiond.conf name it,
/// as `Profile=` does.
package enum KillPolicy: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// iOS: a change of camera, microphone, photos, contacts or calendars kills the app; location
    /// and notifications are seen in place.
    case ios
    /// Android: only a revoke (a change that takes some access away) kills the app.
    case android

    package var description: String { rawValue }

    /// The profile of this name: its permissions, states and rules.
    package var profile: PermissionProfile { PermissionProfile.named(self) }

    /// What changing `permission` from `old` to `new` does to a running app under this profile.
    package func effect(of permission: Permission, from old: PermissionState, to new: PermissionState) -> TransitionEffect {
        profile.effect(of: permission, from: old, to: new)
    }

    /// Whether changing `permission` from `old` to `new` kills a running app under this profile.
    ///
    /// A "change" that leaves the state as it was never kills.
    package func kills(_ permission: Permission, from old: PermissionState, to new: PermissionState) -> Bool {
        effect(of: permission, from: old, to: new) == .kill
    }
}
