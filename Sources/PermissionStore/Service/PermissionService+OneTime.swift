import Glibc
import RelaunchContract
import Synchronization

/// Which apps are in the background, as they last reported (`Lifecycle`): the one-time grants'
/// clock. Each report starts a new period, so an expiry scheduled in an earlier one is stale.
package final class Lifecycles: Sendable {
    private struct Entry { var background: Bool; var period: UInt64 }
    private let entries = Mutex<[String: Entry]>([:])

    package init() {}

    /// Notes a report of `app`; returns the period it starts.
    @discardableResult
    package func note(_ app: String, background: Bool) -> UInt64 {
        entries.withLock { entries in
            let period = (entries[app]?.period ?? 0) + 1
            entries[app] = Entry(background: background, period: period)
            return period
        }
    }

    /// The current period of `app` when it is in the background, else nil.
    package func backgroundPeriod(_ app: String) -> UInt64? {
        entries.withLock { entries in entries[app].flatMap { $0.background ? $0.period : nil } }
    }
}

extension PermissionService {
    /// The journal's word for a change permissiond made itself when a one-time grant ran out.
    package static let oneTimeExpiredReason = "one-time grant expired"

    /// How long `app` may stay in the background before its one-time grants expire; nil when its
    /// profile has no one-time grants.
    package func oneTimeDelay(for app: String) -> Duration? {
        guard let delay = configuration.killPolicy(for: app).profile.oneTimeDelay else { return nil }
        return oneTimeDelayOverride ?? delay
    }

    /// Revokes `app`'s one-time grants (`allowed-once` → `not-determined`, as Android asks again),
    /// when it is still in the background in `period` (no report came since): committed, killed
    /// and announced as any change, with the journal saying `one-time grant expired`.
    package func expireOneTimeGrants(app: String, period: UInt64) async -> PermissionOutcome {
        guard lifecycles.backgroundPeriod(app) == period else { return PermissionOutcome(reply: .success(.done)) }
        let configuration = configuration
        let stored = database.list(app: app)
        let expiring = configuration.permissions(for: app).filter { stored[$0] == .allowedOnce }
        guard !expiring.isEmpty else { return PermissionOutcome(reply: .success(.done)) }
        do {
            return try await change(
                app: app, to: expiring.map { ($0, .notDetermined) }, caller: Caller(uid: UInt32(getuid())),
                configuration: configuration, reason: Self.oneTimeExpiredReason)
        } catch {
            return PermissionOutcome(
                reply: .failure(error), effects: [.problem("cannot expire the one-time grants of \(app): \(error)")])
        }
    }
}
