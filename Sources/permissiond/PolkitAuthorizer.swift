import PermissionStore
import Systemd

/// Authorizes permission changes as systemd's own daemons do: root passes; anyone else is asked
/// about through polkit for the action `org.relaunch.permissions.set`, interactively only when the
/// call allowed it (`busctl --allow-interactive-authorization`).
struct PolkitAuthorizer: Authorizer {
    /// The action for Set and Reset.
    static let changeAction = "org.relaunch.permissions.set"

    let authority: PolkitAuthority

    func authorizeChange(by caller: Caller) async throws(PermissionServiceError) {
        if caller.uid == 0 { return }
        guard let name = caller.busName else {
            throw .accessDenied("the caller is not root and the bus did not name it, so polkit cannot be asked")
        }
        let answer: PolkitAuthority.Answer
        do throws(BusError) {
            answer = try authority.check(action: Self.changeAction, busName: name, interactive: caller.interactive)
        } catch {
            throw .accessDenied(
                "uid \(caller.uid) is not root and polkit could not be asked (\(error)); "
                    + "run as root, or start polkit (systemctl status polkit)")
        }
        guard answer.isAuthorized else {
            let how = answer.isChallenge
                ? "authentication is required: run with sudo, or call with --allow-interactive-authorization"
                : "add the user to the group 'relaunch', or run as root"
            throw .accessDenied("uid \(caller.uid) is not authorized for \(Self.changeAction) (changing permissions); \(how)")
        }
    }
}
