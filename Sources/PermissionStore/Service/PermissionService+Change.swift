import RelaunchContract

/// What became of a pending kill after an attempt to carry it out.
enum KillOutcome: Sendable {
    /// The instance was killed; the kill is recorded.
    case killed(KillRecord)
    /// The instance no longer runs; nothing was owed any more.
    case moot
    /// The kill could not be sent (the last error); it stays pending.
    case failed(String)
}

extension PermissionService {
    /// Commits `states` of `app`, together with the kill they owe the instance running now, then
    /// carries the kill out and says what happened.
    ///
    /// Before committing, asks systemd which instance runs, but only when the change would kill
    /// (by the cached current states and the policy); if systemd cannot be asked, nothing is stored.
    func change(
        app: String, to states: [(Permission, PermissionState)], caller: Caller, configuration: PermissionConfiguration,
        reason: String? = nil
    ) async throws(PermissionServiceError) -> PermissionOutcome {
        let policy = configuration.killPolicy(for: app)
        let unit = configuration.unit(for: app)
        var owing: KillOwed?
        // Each change from the state reads are answered from (what is committed).
        let transitions = states.map { permission, state in (permission, database.get(app: app, permission: permission), state) }
        let wouldKill = transitions.contains { permission, old, new in policy.kills(permission, from: old, to: new) }
        // From the reading of the running instance to the end of the commit, the app's reads wait
        // (``ChangesInFlight``): a process that comes back meanwhile (from this change's kill, or from a
        // kill before it that systemd has not finished) reads this change, committed.
        var gated = false
        if wouldKill, let unit {
            gated = true
            changesInFlight.begin(app)
            let instance: String?
            do {
                instance = try await units.runningInstance(of: unit)
            } catch {
                changesInFlight.end(app)
                throw .failed(
                    "cannot ask systemd whether \(unit) runs (\(error)), so nothing was changed; "
                        + "check that systemd answers (systemctl status \(unit)) and try again")
            }
            if let instance {
                owing = KillOwed(unit: unit, invocationID: instance) { change in
                    policy.kills(change.permission, from: change.old, to: change.new)
                }
            }
        }
        let at = now()
        var early: (kill: KillRecord, previous: KillRecord?)?
        // The first change that kills, as the commit will find it.
        if let owing, let cause = transitions.first(where: { permission, old, new in
            old != new && policy.kills(permission, from: old, to: new)
        }) {
            early = askEarly(app: app, cause: cause, owing: owing)
        }
        let committed: (changes: [StoredPermissionChange], pending: PendingKill?)
        do throws(PermissionServiceError) {
            committed = try store {
                try database.commit(app: app, states: states, callerUID: caller.uid, at: at, owing: owing)
            }
        } catch {
            if gated { changesInFlight.end(app) }
            guard let early else { throw error }
            database.withdraw(inFlight: early.kill, restoring: early.previous)
            throw .failed("\(error.message); \(app) was killed already and comes back with its permissions as they were")
        }
        if gated { changesInFlight.end(app) }
        let changes = committed.changes.filter(\.changed)
        guard let pending = committed.pending else {
            if let early { database.withdraw(inFlight: early.kill, restoring: early.previous) }
            return PermissionOutcome(reply: .success(.done), effects: announce(changes, app: app, kill: nil, reason: reason))
        }
        switch await deliver(pending, delays: inlineRetryDelays, asked: early) {
        case .killed(let kill):
            return PermissionOutcome(reply: .success(.done), effects: announce(changes, app: app, kill: kill, reason: reason))
        case .moot:
            return PermissionOutcome(reply: .success(.done), effects: announce(changes, app: app, kill: nil, reason: reason))
        case .failed(let error):
            try? database.noteAttempt(pending, error: error, announced: true)
            let applied = "\(pending.permission) of \(app) is now \(pending.new) (stored)"
            return PermissionOutcome(
                reply: .failure(
                    .failed(
                        "\(applied), but killing \(pending.unit) to apply it failed: \(error); permissiond keeps "
                            + "trying and says so in the journal; to apply it now: systemctl restart \(pending.unit)")),
                effects: announce(changes, app: app, kill: nil, reason: reason))
        }
    }

    /// Asks for the kill `owing` now, before the commit, when the unit controller has a route for it
    /// that needs no answer (``UnitController/requestKill(unit:instance:)``); the app's reads wait
    /// (``changesInFlight``, begun by the caller) until the commit, and ``lastKill(app:)`` already
    /// names the kill, as ``deliver(_:delays:asked:)`` has it do at every attempt.
    ///
    /// The process that saw the old state is killed while the change commits; one that comes back
    /// reads the change, committed. Should the commit fail, it reads the old state, as it was.
    /// - Returns: the kill asked for and what ``lastKill(app:)`` answered before; nil when not asked.
    private func askEarly(
        app: String, cause: (permission: Permission, old: PermissionState, new: PermissionState), owing: KillOwed
    ) -> (kill: KillRecord, previous: KillRecord?)? {
        let (permission, old, new) = cause
        guard units.requestKill(unit: owing.unit, instance: owing.invocationID) else { return nil }
        // Its reads wait from before the request on, so LastKill names the kill before they are answered.
        let kill = KillRecord(
            app: app, unit: owing.unit, permission: permission, old: old, new: new, invocationID: owing.invocationID,
            at: now())
        return (kill, database.announce(inFlight: kill))
    }

    /// Tries once more to carry out every pending kill (at start, after a reconnect, and while
    /// some remain); gives up on one after ``maximumKillAttempts`` failed attempts, saying so.
    ///
    /// - Returns: the journal entries and signals to emit, and how many kills are still pending.
    package func redeliverPendingKills() async -> (effects: [PermissionEffect], remaining: Int) {
        let pending: [PendingKill]
        do {
            pending = try database.pendingKills()
        } catch {
            return ([.problem("cannot read the pending kills: \(error)")], 0)
        }
        var effects: [PermissionEffect] = []
        var remaining = 0
        for kill in pending {
            let changes = kill.announced ? [] : ((try? database.changes(historyIDs: kill.historyIDs)) ?? [])
            switch await deliver(kill, delays: [.zero]) {
            case .killed(let record):
                effects += announce(changes, app: kill.app, kill: record, killOnly: kill.announced)
            case .moot:
                effects += announce(changes, app: kill.app, kill: nil)
            case .failed(let error):
                if kill.announced == false { effects += announce(changes, app: kill.app, kill: nil) }
                if kill.attempts + 1 >= maximumKillAttempts {
                    try? database.resolve(kill, killed: nil)
                    effects.append(
                        .problem(
                            "gave up killing \(kill.unit) for \(kill.permission) of \(kill.app) changing to "
                                + "\(kill.new) after \(kill.attempts + 1) attempts (\(error)); the instance "
                                + "\(kill.invocationID) may still run with the old permission: systemctl restart \(kill.unit)"))
                } else {
                    try? database.noteAttempt(kill, error: error, announced: true)
                    remaining += 1
                }
            }
        }
        return (effects, remaining)
    }

    /// Sends the kill, retrying after each of `delays`, and records the outcome in the store.
    /// `asked`: the kill asked for before the commit (``askEarly(app:cause:owing:)``), which
    /// the first attempt waits for, and which ``lastKill(app:)`` names already.
    func deliver(
        _ pending: PendingKill, delays: [Duration], asked: (kill: KillRecord, previous: KillRecord?)? = nil
    ) async -> KillOutcome {
        var lastError = "not tried"
        var asked = asked.flatMap { $0.kill.owes(pending) ? $0 : nil }
        for delay in delays {
            if delay > .zero { await sleep(delay) }
            // When the kill is sent: systemd's entries about the dying process come after it, while
            // KillUnit's answer may come after them (systemd asks polkit first).
            let kill = asked?.kill ?? KillRecord(
                app: pending.app, unit: pending.unit, permission: pending.permission, old: pending.old,
                new: pending.new, invocationID: pending.invocationID, at: now())
            // LastKill names it from now on: the app that comes back may ask before the kill returns.
            let previous = asked.map(\.previous) ?? database.announce(inFlight: kill)
            asked = nil
            let delivery: KillDelivery
            do {
                delivery = try await units.kill(unit: pending.unit, instance: pending.invocationID)
            } catch {
                database.withdraw(inFlight: kill, restoring: previous)
                lastError = "\(error)"
                continue
            }
            switch delivery {
            case .gone:
                database.withdraw(inFlight: kill, restoring: previous)
                try? database.resolve(pending, killed: nil)
                return .moot
            case .killed:
                do {
                    try database.resolve(pending, killed: kill)
                } catch {
                    // Sent but not recorded: the next attempt finds the instance gone and drops it.
                    lastError = "killed, but recording the kill failed: \(error)"
                }
                return .killed(kill)
            }
        }
        return .failed(lastError)
    }

    /// The journal entries and signals for `changes` of `app`; `kill` (if any) killed the app
    /// for every change the policy says kills. `killOnly`: the changes were announced already.
    /// `reason`: why permissiond made the change itself (`one-time grant expired`), for the journal.
    func announce(
        _ changes: [StoredPermissionChange], app: String, kill: KillRecord?, killOnly: Bool = false, reason: String? = nil
    ) -> [PermissionEffect] {
        let policy = configuration.killPolicy(for: app)
        var effects: [PermissionEffect] = []
        if let kill { effects.append(.killed(kill)) }
        let killed = changes.map { kill != nil && policy.kills($0.permission, from: $0.old, to: $0.new) }
        if !killOnly {
            for (change, killed) in zip(changes, killed) {
                effects.append(.log(.permissionChanged(change, killed: killed, reason: reason)))
            }
        }
        if let kill { effects.append(.log(.appKilled(kill))) }
        if !killOnly {
            for (change, killed) in zip(changes, killed) {
                effects.append(
                    .emitChanged(
                        ChangedSignal(
                            app: app, permission: change.permission, old: change.old, new: change.new, killed: killed)))
            }
        }
        return effects
    }
}

extension KillRecord {
    /// Whether this kill, asked for before the commit, is the one `pending` owes (same app, unit,
    /// instance and change).
    func owes(_ pending: PendingKill) -> Bool {
        app == pending.app && unit == pending.unit && invocationID == pending.invocationID
            && permission == pending.permission && old == pending.old && new == pending.new
    }
}
