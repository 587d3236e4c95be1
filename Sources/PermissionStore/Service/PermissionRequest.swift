package import RelaunchContract

/// One call of the `org.relaunch.Permissions1` interface, with its arguments as received.
///
/// Arguments are raw strings: the service validates them and answers `InvalidArgs` when wrong.
package enum PermissionRequest: Sendable, Hashable {
    /// `Get(s app, s permission) -> s state`.
    case get(app: String, permission: String)
    /// `List(s app) -> a{ss}`: every permission's state.
    case list(app: String)
    /// `ListApps() -> as`: configured and stored app ids.
    case listApps
    /// `Set(s app, s permission, s state)`.
    case set(app: String, permission: String, state: String)
    /// `Reset(s app, s permission)`; an empty permission resets every permission.
    case reset(app: String, permission: String)
    /// `LastKill(s app) -> (sssst)`.
    case lastKill(app: String)
    /// `Lifecycle(s app, s lifecycle)`: the app went to the `background` or is `active` again
    /// (the app itself or root); starts and stops the clock of its one-time grants.
    case lifecycle(app: String, lifecycle: String)

    /// The app the request is about (its first argument), or nil for ListApps.
    package var app: String? {
        switch self {
        case .get(let app, _), .list(let app), .set(let app, _, _), .reset(let app, _), .lastKill(let app),
            .lifecycle(let app, _):
            app
        case .listApps: nil
        }
    }
}

/// A successful answer to a ``PermissionRequest``, to be marshalled as the D-Bus reply.
package enum PermissionReply: Sendable, Hashable {
    /// `Get`: the state, as `s` (`PermissionState.rawValue`).
    case state(PermissionState)
    /// `List`: every permission → state, as `a{ss}` of raw values.
    case states([Permission: PermissionState])
    /// `ListApps`: the app ids, sorted, as `as`.
    case apps([String])
    /// `Set`, `Reset` and `Lifecycle`: an empty reply.
    case done
    /// `LastKill`: the last kill, or `nil` — marshal `nil` as `("", "", "", "", 0)`, else
    /// `(invocationID, permission, old, new, at)`.
    case lastKill(KillRecord?)
}

/// The full result of handling one request: the reply (or error) and what the daemon must do.
package struct PermissionOutcome: Sendable, Hashable {
    /// The D-Bus reply: a value, or an error with its D-Bus name and message.
    package var reply: Result<PermissionReply, PermissionServiceError>
    /// What happened and what to do, in order: log these entries, emit these signals.
    ///
    /// Present even when `reply` is a failure: a committed change whose kill failed is still
    /// logged and signalled.
    package var effects: [PermissionEffect]

    /// Creates an outcome.
    package init(reply: Result<PermissionReply, PermissionServiceError>, effects: [PermissionEffect] = []) {
        self.reply = reply
        self.effects = effects
    }
}
