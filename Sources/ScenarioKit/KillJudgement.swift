package import RelaunchBus
package import RelaunchctlCore

/// What a permission step saw before it changed anything, for `expect kill` / `no-kill`: the
/// app's running instance and the time of permissiond's last kill of the app (0 for none).
package struct BeforeChange: Sendable, Equatable {
    /// The unit's invocation id before the change.
    package var invocation: String
    /// The unit's main PID before the change.
    package var mainPID: String
    /// When permissiond last killed the app before the change, in µs since the epoch (0: never).
    package var lastKillUSec: UInt64

    /// What was seen before a change.
    package init(invocation: String, mainPID: String, lastKillUSec: UInt64) {
        self.invocation = invocation
        self.mainPID = mainPID
        self.lastKillUSec = lastKillUSec
    }

    /// `expect kill`, as permissiond records it: `lastKill` (its record now) is a kill newer than the
    /// one before the change, of the instance that ran then.
    ///
    /// - Throws: `CLIError.failed` when permissiond recorded no kill for the change, or killed another
    ///   instance.
    package func checkKill(_ lastKill: LastKill?) throws(CLIError) {
        guard let lastKill, lastKill.realtimeMicroseconds != lastKillUSec else {
            throw .failed("expected a kill, but permissiond recorded none for this change")
        }
        guard lastKill.invocationID == invocation else {
            throw .failed("permissiond killed invocation \(lastKill.invocationID), the app ran \(invocation)")
        }
    }

    /// `expect no-kill`: permissiond recorded no new kill (`lastKill` is its record now), and the
    /// unit still runs the same live process (`invocationID`, `mainPID` now; `isAlive` asked last).
    ///
    /// - Throws: `CLIError.failed` naming the permission of a new kill, or the PIDs when the
    ///   instance changed or died.
    package func checkNoKill(
        _ lastKill: LastKill?, invocationID: String, mainPID: String, isAlive: (_ pid: String) -> Bool
    ) throws(CLIError) {
        if let lastKill, lastKill.realtimeMicroseconds != lastKillUSec {
            throw .failed("expected no kill, but permissiond killed the app for \(lastKill.permission)")
        }
        guard invocationID == invocation, mainPID == self.mainPID, isAlive(mainPID) else {
            throw .failed("expected the same instance to run, but it changed (pid \(self.mainPID) → \(mainPID))")
        }
    }

    /// The journal entries a kill of `unit`'s instance leaves, which `expect kill` waits for:
    /// permissiond's kill entry with signal KILL and systemd's exit entry of the instance, status 9.
    package func killEntries(unit: String) -> [(event: JournalEvent, fields: [String: String])] {
        [(.appKilled, ["UNIT": unit, "SIGNAL": "KILL"]),
         (.unitExited, ["UNIT": unit, "EXIT_STATUS": "9", "INVOCATION_ID": invocation])]
    }
}

/// Which steps the journal expectations look after. An `expect journal` looks only at entries
/// logged since the run of acting steps it follows began: the first step that acts after an
/// expectation (or at the start) takes the journal's cursor; steps that only look (`wait-ready`,
/// `screen`) neither act nor end a run.
package struct ExpectationSpan: Sendable {
    private var afterExpectation = true

    /// A span before a scenario's first step.
    package init() {}

    /// Whether the runner takes a new cursor before `step`, which is noted.
    package mutating func takesCursor(before step: Step) -> Bool {
        let takes = step.acts && afterExpectation
        if step.acts || step.isExpectation { afterExpectation = step.isExpectation }
        return takes
    }
}

extension JournalEvent {
    /// The FIELD=VALUE matches of an `expect journal` / `no-journal` step in the app `unit`: the
    /// event's MESSAGE_ID, `UNIT=unit` for systemd's entries unless `fields` names a unit, then
    /// `fields` sorted by name (so a failure names them in one order).
    package func matches(_ fields: [String: String], unit: String) -> [String] {
        var matches = ["MESSAGE_ID=\(messageID)"]
        if isManagerEvent && fields["UNIT"] == nil { matches.append("UNIT=\(unit)") }
        return matches + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }
}
