package import RelaunchApp
package import RelaunchBus
internal import RelaunchContract

/// The host's launch decisions about the last instance, pure so they are tested without a
/// systemd, a bus or a file: the launcher gathers the facts and carries out the answers.
package enum LaunchPolicy {
    /// What the launch concludes about how the last instance ended.
    package enum LastExitFinding: Sendable, Equatable {
        /// permissiond did not kill the last instance (or nothing says so).
        case notKilled
        /// permissiond killed it for this change (Android's REASON_PERMISSION_CHANGE).
        case killed(LastExit)
        /// permissiond killed it, but names a permission or state this build does not know.
        case unreadable
    }

    /// How the last instance ended: permissiond's last kill names one of the invocations the last
    /// instance left behind (the one it recorded after READY=1, the one in its restoring mark).
    package static func lastExit(lastKill: LastKill?, previousInvocations: Set<String>) -> LastExitFinding {
        guard let kill = lastKill, !kill.invocationID.isEmpty, previousInvocations.contains(kill.invocationID) else {
            return .notKilled
        }
        guard let permission = Permission(rawValue: kill.permission), let old = PermissionState(rawValue: kill.old),
            let new = PermissionState(rawValue: kill.new)
        else { return .unreadable }
        return .killed(LastExit(permission: permission, old: old, new: new))
    }

    /// Whether a restoring mark left behind is forgiven: a restore that permissiond killed (a
    /// permission changed while the app was launching) is no crash, so the saved state is restored
    /// rather than discarded as crashed-during-restore.
    package static func forgivesRestoringMark(markInvocation: String?, lastKill: LastKill?) -> Bool {
        guard let markInvocation, !markInvocation.isEmpty, let kill = lastKill else { return false }
        return markInvocation == kill.invocationID
    }
}
