package import PermissionStore
import RelaunchBus
package import Systemd

/// Authorizes as systemd's own daemons do: root passes; anyone else is asked about through polkit,
/// interactively only when the call allowed it (`busctl --allow-interactive-authorization`).
///
/// Changes (Set, Reset) need `org.relaunch.permissions.set`. Reads of an app the caller is not
/// (the service lets root and the app itself through first) need `org.relaunch.permissions.read`.
/// polkit is asked without holding the link's connection, so a prompt that nobody answers holds
/// up its own caller and nobody else, until ``PolkitAuthority/interactiveTimeout``.
///
/// polkit is asked through a ``PolkitGate``: a budget per uid (a stranger who floods waits behind
/// its own checks, so the checks of others, a member of `relaunch` or an administrator
/// authenticating, get the next free place), and a refusal remembered per connection and answered
/// at a pace, so a flood neither loads polkit (which systemd asks whether permissiond may kill)
/// nor spins the bus.
package struct PolkitAuthorizer: Authorizer {
    /// The action for Set and Reset (the table's ``Permissions1Method/Access/changer``).
    package static let changeAction = Permissions1Method.Access.changeAction
    /// The action for reading another app's permissions and kills (``Permissions1Method/Access/reader``).
    package static let readAction = Permissions1Method.Access.readAction

    /// Who answers: polkit over the bus (``PolkitAuthority``), or a stand-in in unit tests.
    let gate: PolkitGate

    /// 4 checks of one uid at once (an unanswered prompt holds one for up to 25 s), 64 in all: below
    /// dbus-daemon's 128 pending replies on the link that carries them. 4096 waiting per uid: as
    /// many calls as one uid can have pending here (256 connections, dbus-daemon's bound per user,
    /// times 16 per connection), so a flooder's calls wait instead of being refused and sent again.
    package static let limits = WorkBudgetLimits(runningPerKey: 4, waitingPerKey: 4096, running: 64)

    package init(authority: any PolkitChecking, limits: WorkBudgetLimits = PolkitAuthorizer.limits) {
        gate = PolkitGate(polkit: authority, limits: limits)
    }

    /// Forgets the refusals remembered per connection (after a reconnect or a reload).
    package func forgetRefusals() { gate.forgetAll() }

    package func authorizeChange(by caller: Caller) async throws(PermissionServiceError) {
        if caller.uid == 0 { return }
        try await ask(Self.changeAction, for: caller, what: "changing permissions")
    }

    package func authorizeRead(of app: String, by caller: Caller) async throws(PermissionServiceError) {
        if caller.uid == 0 { return }
        try await ask(Self.readAction, for: caller, what: "reading the permissions of \(app), which is not the caller's own app")
    }

    private func ask(_ action: String, for caller: Caller, what: String) async throws(PermissionServiceError) {
        guard let name = caller.busName else {
            throw .accessDenied("the caller is not root and the bus did not name it, so polkit cannot be asked")
        }
        let answer: PolkitVerdict
        do throws(BusError) {
            answer = try await gate.check(action: action, busName: name, uid: caller.uid, interactive: caller.interactive)
        } catch where error.name == BusError.limitsExceededName {
            throw .limitsExceeded("\(error.message) (\(what))")
        } catch {
            throw .accessDenied(
                "uid \(caller.uid) is not root and polkit could not be asked (\(error.message)); "
                    + "run as root, or start polkit (systemctl status polkit)")
        }
        let how: String
        switch answer {
        case .authorized: return
        case .challenge: how = "authentication is required: run with sudo, or call with --allow-interactive-authorization"
        case .denied: how = "add the user to the group 'relaunch', or run as root"
        }
        throw .accessDenied("uid \(caller.uid) is not authorized for \(action) (\(what)); \(how)")
    }
}
