import RelaunchContract

extension PermissionService {
    /// Turns committed changes of one app into the kill (at most one), journal entries and signals.
    ///
    /// Changes that left the state as it was produce nothing. The kill is attributed to the first
    /// change (in `Permission.allCases` order) the policy says kills; every change the policy says
    /// kills is then reported as having killed the app.
    func apply(_ changes: [PermissionChange], app: String) async -> PermissionOutcome {
        let changes = changes.filter(\.changed)
        let policy = configuration.killPolicy
        let killing = changes.filter { policy.kills($0.permission, from: $0.old, to: $0.new) }

        var kill: KillRecord?
        var failure: PermissionServiceError?
        if let cause = killing.first, let unit = configuration.unit(for: app) {
            (kill, failure) = await killIfRunning(unit: unit, cause: cause, recording: killing.compactMap(\.historyID))
        }

        var effects: [PermissionEffect] = []
        if let kill { effects.append(.killed(kill)) }
        let killedByChange = changes.map { change in kill != nil && killing.contains(change) }
        for (change, killed) in zip(changes, killedByChange) {
            effects.append(.log(.permissionChanged(change, killed: killed)))
        }
        if let kill { effects.append(.log(.appKilled(kill))) }
        for (change, killed) in zip(changes, killedByChange) {
            effects.append(
                .emitChanged(
                    ChangedSignal(app: app, permission: change.permission, old: change.old, new: change.new, killed: killed)))
        }
        return PermissionOutcome(reply: failure.map { .failure($0) } ?? .success(.done), effects: effects)
    }

    /// Kills `unit` if it is running and records the kill against the history rows `recording`.
    ///
    /// - Returns: the kill, if one was sent, and the failure to reply with, if any step failed.
    ///   Both are set when the kill was sent but could not be recorded.
    private func killIfRunning(
        unit: String, cause: PermissionChange, recording historyIDs: [Int64]
    ) async -> (KillRecord?, PermissionServiceError?) {
        let applied = "\(cause.permission) of \(cause.app) is now \(cause.new)"
        let invocationID: String
        do {
            guard try await units.isActive(unit: unit), let killed = try await units.kill(unit: unit) else {
                return (nil, nil)
            }
            invocationID = killed
        } catch {
            return (
                nil,
                .failed(
                    "\(applied), but killing \(unit) to apply it failed: \(error); "
                        + "restart the app yourself: systemctl restart \(unit)")
            )
        }
        let kill = KillRecord(
            app: cause.app, unit: unit, permission: cause.permission, old: cause.old, new: cause.new,
            invocationID: invocationID, at: now())
        do {
            try database.recordKill(kill, causedBy: historyIDs)
        } catch {
            return (kill, .failed("\(applied) and \(unit) was killed, but recording the kill failed: \(error)"))
        }
        return (kill, nil)
    }
}
