import PermissionStore
import RelaunchContract
import Systemd

/// Authorizes permission changes as systemd's own daemons do: root passes; anyone else is asked
/// about through polkit (`org.freedesktop.PolicyKit1.Authority.CheckAuthorization`) for the action
/// `org.relaunch.permissions.set`, with the caller's bus name as the subject, and interactively
/// only when the call allowed it (`busctl --allow-interactive-authorization`).
struct PolkitAuthorizer: Authorizer {
    /// The action for Set and Reset.
    static let changeAction = "org.relaunch.permissions.set"
    /// How long polkit may take to answer a non-interactive check.
    static let timeout: Duration = .seconds(5)
    /// How long an interactive check (a person typing a password) may take.
    static let interactiveTimeout: Duration = .seconds(120)

    /// The link the checks go through.
    let link: BusLink

    func authorizeChange(by caller: Caller) async throws(PermissionServiceError) {
        if caller.uid == 0 { return }
        guard let name = caller.busName else {
            throw .accessDenied("the caller is not root and the bus did not name it, so polkit cannot be asked")
        }
        let subject = BusValue.structure([
            .string("system-bus-name"),
            .array(elementSignature: "{sv}", [.dictEntry(.string("name"), .variant(.string(name)))]),
        ])
        let reply: BusValues
        do throws(BusError) {
            reply = try link.call(
                destination: "org.freedesktop.PolicyKit1", path: "/org/freedesktop/PolicyKit1/Authority",
                interface: "org.freedesktop.PolicyKit1.Authority", member: "CheckAuthorization",
                arguments: [
                    subject, .string(Self.changeAction), .array(elementSignature: "{ss}", []),
                    .uint32(caller.interactive ? 1 : 0), .string(""),
                ],
                timeout: caller.interactive ? Self.interactiveTimeout : Self.timeout)
        } catch {
            throw .accessDenied(
                "uid \(caller.uid) is not root and polkit could not be asked (\(error)); "
                    + "run as root, or start polkit (systemctl status polkit)")
        }
        let result = try? reply.structure(at: 0)
        let authorized = (try? result?.bool(at: 0)) ?? false
        let challenge = (try? result?.bool(at: 1)) ?? false
        guard authorized else {
            let how = challenge
                ? "authentication is required: run with sudo, or call with --allow-interactive-authorization"
                : "add the user to the group 'relaunch', or run as root"
            throw .accessDenied(
                "uid \(caller.uid) is not authorized for \(Self.changeAction) (changing permissions); \(how)")
        }
    }
}
