package import PermissionStore
package import RelaunchBus
import RelaunchContract

/// What a method's access rule makes of a caller before polkit is asked.
package enum AccessVerdict: Sendable, Hashable {
    /// It may go on at once: the rule admits anyone, root, or the app itself, and the caller is one.
    case admitted
    /// polkit decides, for the row's ``Permissions1Method/Access/polkitAction``.
    case askPolkit
    /// It may not, whatever polkit says.
    case refused(PermissionServiceError)
}

// permissiond's one access check: who may call each Permissions1 method is its row's access
// (``Permissions1Method/Access``); the store says whether the caller is the app itself, and the
// authorizer asks polkit.
extension PermissionService {
    /// What `method`'s rule makes of `caller`, a call about `app` (the first argument, when the
    /// method takes one), before polkit is asked.
    package func verdict(_ method: Permissions1Method, app: String?, caller: Caller) -> AccessVerdict {
        let access = method.access
        let fromTheApp = app.map { isTheApp($0, caller: caller) } ?? false
        if access.admits(fromRoot: caller.uid == 0, fromTheApp: fromTheApp, polkitAuthorized: false) { return .admitted }
        if access.polkitAction != nil { return .askPolkit }
        switch access {
        case .appItself:
            return .refused(.accessDenied(
                "only \(Echo.quoted(app ?? "")) itself (a process of its registered unit) or root reports its lifecycle"))
        case .anyone, .reader, .changer, .root:
            return .refused(.accessDenied("\(method.member) is for root only"))
        }
    }

    /// Whether a call may be answered at once, on the bus thread: its rule admits anyone, or the
    /// caller is known (`caller`, nil while it is being looked up) and admitted without polkit.
    package func admitsAtOnce(_ method: Permissions1Method, app: String?, caller: Caller?) -> Bool {
        if method.access == .anyone { return true }
        guard let caller else { return false }
        return verdict(method, app: app, caller: caller) == .admitted
    }

    /// Throws `AccessDenied` unless `caller` may call `method` about `app`: the rule's verdict, and
    /// when that is polkit's to give, the authorizer's (which may wait for a person to authenticate).
    package func authorize(_ method: Permissions1Method, app: String?, caller: Caller) async throws(PermissionServiceError) {
        switch verdict(method, app: app, caller: caller) {
        case .admitted:
            return
        case .refused(let error):
            throw error
        case .askPolkit where method.access == .changer:
            try await authorizer.authorizeChange(by: caller)
        case .askPolkit:
            try await authorizer.authorizeRead(of: app ?? "", by: caller)
        }
    }
}
