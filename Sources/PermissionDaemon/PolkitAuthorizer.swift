package import PermissionStore
package import Systemd

/// Authorizes as systemd's own daemons do: root passes; anyone else is asked about through polkit,
/// interactively only when the call allowed it (`busctl --allow-interactive-authorization`).
///
/// Changes (Set, Reset) need `org.relaunch.permissions.set`. Reads of an app the caller is not
/// (the service lets root and the app itself through first) need `org.relaunch.permissions.read`.
/// polkit is asked without holding the link's connection, so a prompt that nobody answers holds
/// up its own caller and nobody else, until ``PolkitAuthority/interactiveTimeout``.
package struct PolkitAuthorizer: Authorizer {
    /// The action for Set and Reset.
    package static let changeAction = "org.relaunch.permissions.set"
    /// The action for reading another app's permissions and kills.
    package static let readAction = "org.relaunch.permissions.read"

    /// Who answers: polkit over the bus (``PolkitAuthority``), or a stand-in in unit tests.
    let authority: any PolkitChecking

    package init(authority: any PolkitChecking) {
        self.authority = authority
    }

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
            answer = try await authority.check(action: action, busName: name, interactive: caller.interactive)
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

/// polkit's answer for one caller and action.
package enum PolkitVerdict: Sendable, Hashable {
    /// The caller may do it.
    case authorized
    /// The caller could, after authenticating (not authorized yet).
    case challenge
    /// The caller may not.
    case denied
}

/// Asks polkit whether a bus client may do an action (``PolkitAuthority`` over the system bus).
package protocol PolkitChecking: Sendable {
    /// polkit's answer for `busName` and `action`.
    ///
    /// - Throws: ``BusError`` when polkit cannot be asked or did not answer in time.
    func check(action: String, busName: String, interactive: Bool) async throws(BusError) -> PolkitVerdict
}

extension PolkitAuthority: PolkitChecking {
    package func check(action: String, busName: String, interactive: Bool) async throws(BusError) -> PolkitVerdict {
        let answer: Answer = try await check(action: action, busName: busName, interactive: interactive)
        return answer.isAuthorized ? .authorized : answer.isChallenge ? .challenge : .denied
    }
}
