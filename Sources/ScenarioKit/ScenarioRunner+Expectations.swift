import RelaunchBus
import RelaunchctlCore
import Systemd

/// The runner's expectations against the running system: what they look at comes from
/// permissiond, systemd, the app and the journal; what they decide is `BeforeChange`'s and `Poll`'s.
extension ScenarioRunner {
    /// The bounded wait every expectation takes: the scenario's timeout, the monotonic clock.
    var poll: Poll { Poll(timeout: timeout) }

    /// Notes the app's instance and permissiond's last kill before a permission step changes anything.
    mutating func rememberBeforeChange() throws(CLIError) {
        let unit = try UnitState.read(target.unit)
        let lastKill = try PermissionsCLIClient().lastKill(app: target.app)
        beforeChange = BeforeChange(
            invocation: unit.invocationID, mainPID: unit.mainPID, lastKillUSec: lastKill?.realtimeMicroseconds ?? 0)
    }

    /// `expect kill`: permissiond killed the instance that ran, systemd relaunched it, and the
    /// journal has both entries of the kill.
    func expectKill() throws(CLIError) {
        guard let before = beforeChange else { throw .usage("expect kill must follow a set or reset step") }
        try before.checkKill(try PermissionsCLIClient().lastKill(app: target.app))
        try waitForNewInstance(after: before.invocation)
        for (event, fields) in before.killEntries(unit: target.unit) { try expectJournalEntry(event, fields) }
    }

    /// `expect no-kill`: no new kill, and the same instance still runs.
    func expectNoKill() throws(CLIError) {
        guard let before = beforeChange else { throw .usage("expect no-kill must follow a set or reset step") }
        let lastKill = try PermissionsCLIClient().lastKill(app: target.app)
        let now = try UnitState.read(target.unit)
        try before.checkNoKill(lastKill, invocationID: now.invocationID, mainPID: now.mainPID, isAlive: UnitState.isAlive(pid:))
    }

    /// Waits until systemd runs a new instance of the app, then until it is ready.
    func waitForNewInstance(after invocation: String) throws(CLIError) {
        try poll.waitForNewInstance(of: target.unit, after: invocation) { () throws(CLIError) in
            try UnitState.read(target.unit).invocationID
        }
        _ = try AppCLIClient.waitReady(target, timeout: timeout)
    }

    /// `expect state`: waits up to the timeout for the app's state to hold the value.
    func expectState(_ path: String, _ expected: String) throws(CLIError) {
        try poll.expectState(path, expected) { () throws(CLIError) in try AppCLIClient(target).state() }
    }

    /// `expect journal`: waits for a matching entry after the cursor taken before the steps this
    /// expectation follows.
    func expectJournalEntry(_ event: JournalEvent, _ fields: [String: String]) throws(CLIError) {
        let matches = event.matches(fields, unit: target.unit)
        try poll.expectJournalEntry(matches.joined(separator: " ")) { () throws(CLIError) in
            try JournalQuery.count(matches: matches, afterCursor: journalCursor).count
        }
    }

    /// `expect no-journal`: no matching entry between that cursor and a marker entry written now.
    func expectNoJournalEntry(_ event: JournalEvent, _ fields: [String: String]) throws(CLIError) {
        let matches = event.matches(fields, unit: target.unit)
        let marker = JournalQuery.writeMarker("expect no-journal \(event.rawValue)")
        try poll.expectNoJournalEntry(matches.joined(separator: " "), marker: marker) { () throws(CLIError) in
            try JournalQuery.count(matches: matches, afterCursor: journalCursor, stopAt: marker)
        }
    }

    /// `corrupt-archive`: damages the saved archive of the stopped app.
    func corruptArchive() throws(CLIError) {
        try Self.checkStopped(mainPID: try UnitState.read(target.unit).mainPID)
        try Self.corruptArchive(inFolder: try stateDirectory())
    }
}
