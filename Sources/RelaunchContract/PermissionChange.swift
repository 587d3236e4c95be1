/// What a permission change did: the states before, whether it killed the running app, and how the
/// app came back.
///
/// ```swift
/// let change = try await app.setPermission(.camera, to: .allowed)
/// #expect(change.previous[.camera] == .denied)
/// #expect(change.wasKilled)
/// #expect(change.relaunch?.outcome == .restored)
///
/// let limited = try await app.setPermission(.photos, to: .limited)
/// #expect(limited.effect == limited.expected)   // killed exactly when the profile says
/// ```
public struct PermissionChange: Sendable, Hashable {
    /// The app whose permissions changed.
    public var app: String
    /// Each permission the call addressed, with its state in the store just before the call.
    public var previous: [Permission: PermissionState]
    /// The state every addressed permission has now.
    public var new: PermissionState
    /// Whether permissiond killed the running app for this change (as iOS does for a change of
    /// camera, microphone, photos, contacts or calendars, and Android for a revoke, by the app's
    /// profile).
    public var wasKilled: Bool
    /// What the app's profile says this change does to a running app (docs/PERMISSIONS.md): `kill`
    /// when any addressed permission's change kills, else `notified` when any is seen in place, else
    /// `nothing`.
    public var expected: TransitionEffect
    /// What happened: `kill` when the app was killed, else what the profile says of a change that
    /// does not kill (`notified` or `nothing`).
    public var effect: TransitionEffect {
        if wasKilled { return .kill }
        return expected == .kill ? .nothing : expected
    }
    /// How the app came back, when it was killed and waited for; nil when it was not killed.
    public var relaunch: Relaunch?

    /// Whether any addressed permission's state changed.
    public var changedAnything: Bool { previous.values.contains { $0 != new } }

    /// A change of `app`'s `previous` permissions to `new` (RelaunchDriver's `AppLink` makes them).
    package init(
        app: String, previous: [Permission: PermissionState], new: PermissionState, wasKilled: Bool,
        expected: TransitionEffect, relaunch: Relaunch?
    ) {
        (self.app, self.previous, self.new) = (app, previous, new)
        (self.wasKilled, self.expected, self.relaunch) = (wasKilled, expected, relaunch)
    }
}

/// How a killed app came back: the new instance, how it launched and how fast.
public struct Relaunch: Sendable, Hashable {
    /// The new instance's `$INVOCATION_ID`.
    public var invocationID: String
    /// Whether it restored saved state.
    public var outcome: AppState.LaunchOutcome
    /// Why saved state was discarded, when it was.
    public var discardReason: AppState.DiscardReason?
    /// How each controller was restored (restoration path → way), empty after a fresh launch.
    public var restoredVia: [String: AppState.RestoredVia]
    /// From systemd seeing the killed process exit to the new instance's READY=1, as systemd
    /// timed the two (the unit's ActiveExit and ActiveEnter timestamps); nil when not known.
    public var exitToReady: Duration?
    /// The app's whole state right after it came back (nil for an app that serves no App1).
    public var state: AppState?
    /// Whether the unit's standby took over (the same invocation, another main process: systemd
    /// started nothing), rather than systemd restarting the unit.
    public var tookOver: Bool

    /// A relaunch into `invocationID` (RelaunchDriver's `AppLink` makes them).
    package init(
        invocationID: String, outcome: AppState.LaunchOutcome, discardReason: AppState.DiscardReason?,
        restoredVia: [String: AppState.RestoredVia], exitToReady: Duration?, state: AppState?, tookOver: Bool = false
    ) {
        (self.invocationID, self.outcome, self.discardReason) = (invocationID, outcome, discardReason)
        (self.restoredVia, self.exitToReady, self.state, self.tookOver) = (restoredVia, exitToReady, state, tookOver)
    }
}

/// One permission as the store and the app see it.
public struct PermissionReading: Sendable, Hashable {
    /// The state in permissiond's store.
    public var store: PermissionState
    /// The state the running app last learned (its state JSON's `permissions`), or nil when the app
    /// does not use the permission or serves no App1.
    public var app: PermissionState?

    /// A reading of `store` in the store and `app` in the app.
    public init(store: PermissionState, app: PermissionState?) {
        self.store = store
        self.app = app
    }
}
