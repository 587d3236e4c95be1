import Glibc
import PermissionDaemon
import PermissionStore
import Systemd
import Testing

/// The daemon's small parts that decide something: how many calls a caller may have waiting, how an
/// error reaches the journal, when the test hooks are on, whose unit is asked for, where the store is.
@Suite("permissiond's parts: call limits, error lines, test hooks, caller units, the store's path")
struct DaemonPartsTests {
    @Test("a caller may have `limit` calls waiting; the next is refused with LimitsExceeded until one is answered")
    func pendingCallLimit() throws {
        let pending = PendingCalls(limit: 2)
        let first = try pending.admit(":1.5")
        _ = try pending.admit(":1.5")
        let refused = #expect(throws: BusError.self) { try pending.admit(":1.5") }
        #expect(refused?.name == BusError.limitsExceededName)
        #expect(refused?.message.contains("already has 2 calls waiting") == true)
        #expect(try pending.admit(":1.6") == ":1.6", "another caller has its own count")
        pending.release(first)
        _ = try pending.admit(":1.5")
        #expect(throws: BusError.self) { try pending.admit(":1.5") }
    }

    @Test("a caller whose calls were all answered starts again from nothing")
    func pendingCallsReleased() throws {
        let pending = PendingCalls(limit: 2)
        for _ in 0..<3 {
            let one = try pending.admit(nil)
            let two = try pending.admit(nil)
            #expect(one == "" && two == "", "calls without a sender share one count")
            pending.release(one)
            pending.release(two)
        }
        // More releases than calls never make room for more than the limit.
        pending.release("")
        _ = try pending.admit(nil)
        _ = try pending.admit(nil)
        #expect(throws: BusError.self) { try pending.admit(nil) }
    }

    @Test("an error is one line, with journald's err prefix only when stderr is the journal's stream")
    func errorLines() {
        let error = DaemonError("cannot open\nthe database\r\nnow")
        #expect(error.line(forJournal: false) == "permissiond: cannot open the database now\n")
        #expect(error.line(forJournal: true) == "<3>permissiond: cannot open the database now\n")
    }

    @Test("stderr is the journal's stream only when $JOURNAL_STREAM names its device and inode")
    func journalStream() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var status = stat()
        try #require(fstat(fds[1], &status) == 0)
        let named = "\(status.st_dev):\(status.st_ino)"
        #expect(DaemonError.isJournalStream(fd: fds[1], journalStream: named))
        #expect(!DaemonError.isJournalStream(fd: fds[1], journalStream: nil))
        #expect(!DaemonError.isJournalStream(fd: fds[1], journalStream: "\(status.st_dev):\(status.st_ino + 1)"))
        #expect(!DaemonError.isJournalStream(fd: fds[1], journalStream: "\(status.st_ino)"))
        #expect(!DaemonError.isJournalStream(fd: -1, journalStream: named), "a closed stderr is no stream")
    }

    @Test("the test hooks are on only with RELAUNCH_TEST_HOOKS=1 exactly")
    func testHooks() {
        #expect(Daemon.testHooksEnabled(environment: ["RELAUNCH_TEST_HOOKS": "1"]))
        for value in ["0", "", "yes", "11"] { #expect(!Daemon.testHooksEnabled(environment: ["RELAUNCH_TEST_HOOKS": value])) }
        #expect(!Daemon.testHooksEnabled(environment: [:]))
    }

    @Test("systemd is asked for the unit of a caller other than root, and only with a pid")
    func whoseUnit() {
        #expect(CallerDirectory.asksForUnit(uid: 1000, pid: 42))
        #expect(!CallerDirectory.asksForUnit(uid: 0, pid: 42), "root reads and changes everything anyway")
        #expect(!CallerDirectory.asksForUnit(uid: 1000, pid: 0))
    }

    @Test("the store is in the first of systemd's state directories, empty entries skipped; else beside the daemon")
    func databasePath() {
        #expect(DaemonSettings.defaultDatabasePath(environment: ["STATE_DIRECTORY": "/var/lib/permissiond"]) == "/var/lib/permissiond/permissions.db")
        #expect(DaemonSettings.defaultDatabasePath(environment: ["STATE_DIRECTORY": "/var/lib/a/:/var/lib/b"]) == "/var/lib/a/permissions.db")
        #expect(DaemonSettings.defaultDatabasePath(environment: ["STATE_DIRECTORY": ":/var/lib/a"]) == "/var/lib/a/permissions.db")
        #expect(DaemonSettings.defaultDatabasePath(environment: [:]) == "./permissions.db")
    }
}

@Suite("The watchdog's judgement of a long write")
struct StuckWriteTests {
    /// The longest a write can legitimately take: every call to systemd at its bound, a standby's
    /// chance to kill first at each attempt, and every wait between inline kill attempts.
    static let worstLegitimateWrite: Duration = {
        let attempts = PermissionService.defaultInlineRetryDelays
        let reads = SystemdUnitController.callsPerRunningInstance + attempts.count * SystemdUnitController.readsPerKill
        let authorized = attempts.count * SystemdUnitController.authorizedCallsPerKill
        return SystemdUnitController.callTimeout * reads + SystemdUnitController.authorizedCallTimeout * authorized
            + SystemdUnitController.standbyKillBound * attempts.count + attempts.reduce(.zero, +)
    }()

    @Test("a write is stuck only past the worst a legitimate one takes, and 5 s more")
    func limit() {
        #expect(PermissionsBusServer.stuckWriteLimit == Self.worstLegitimateWrite + .seconds(5), "a margin of 5 s")
        #expect(!PermissionsBusServer.isStuck(busyFor: Self.worstLegitimateWrite))
        #expect(!PermissionsBusServer.isStuck(busyFor: .seconds(1)))
        #expect(PermissionsBusServer.isStuck(busyFor: PermissionsBusServer.stuckWriteLimit + .seconds(1)))
    }
}

@Suite("What systemd's answers mean to permissiond's kills")
struct SystemdAnswerTests {
    @Test("only the instance that owed the kill is killed: not a newer one, not none")
    func owedInstance() {
        #expect(SystemdUnitController.isOwed(current: "0123abcd", instance: "0123abcd"))
        #expect(!SystemdUnitController.isOwed(current: "4567ef01", instance: "0123abcd"), "systemd restarted it meanwhile")
        #expect(!SystemdUnitController.isOwed(current: "", instance: "0123abcd"), "nothing runs")
    }

    @Test("a kill goes to a standby only while one said it is there, is alive and is not the main process")
    func standbyRegistry() throws {
        let registry = StandbyRegistry()
        #expect(!registry.hasAny(unit: "a.service"))
        let me = getpid()
        registry.register(unit: "a.service", pid: UInt32(me))
        #expect(registry.hasAny(unit: "a.service") && !registry.hasAny(unit: "b.service"))
        #expect(registry.hasStandby(unit: "a.service", besides: 1), "alive, and not the main process")
        #expect(!registry.hasStandby(unit: "a.service", besides: me), "a standby that took over is the main process")
        #expect(!registry.hasStandby(unit: "b.service", besides: 1), "another unit's")
        registry.register(unit: "a.service", pid: UInt32(Int32.max))  // no such process: not taken
        #expect(registry.hasStandby(unit: "a.service", besides: 1), "the one before stays")
        // A standby that is gone is forgotten.
        let child = fork()
        if child == 0 { _exit(0) }
        registry.register(unit: "c.service", pid: UInt32(child))
        var status: CInt = 0
        _ = waitpid(child, &status, 0)
        #expect(!registry.hasStandby(unit: "c.service", besides: 1), "gone")
        #expect(!registry.hasAny(unit: "c.service"), "and forgotten")
    }

    @Test("only a pid a process can have is pinned and signalled")
    func signalablePIDs() {
        #expect(SystemdUnitController.signalablePID(4242) == 4242)
        #expect(SystemdUnitController.signalablePID(0) == nil, "no main process")
        #expect(SystemdUnitController.signalablePID(UInt64(Int32.max)) == Int32.max)
        #expect(SystemdUnitController.signalablePID(UInt64(Int32.max) + 1) == nil)
    }

    @Test("a reading of the running instance stands in for a new one only for that instance and only briefly")
    func freshReadings() {
        let ledger = StandbyRegistry()
        let read = ContinuousClock.now
        ledger.saw(4242, of: "a.service", invocation: "0123abcd", at: read)
        #expect(ledger.fresh(unit: "a.service", invocation: "0123abcd", now: read + .milliseconds(5)) == 4242)
        #expect(ledger.fresh(unit: "a.service", invocation: "0123abcd", now: read + StandbyRegistry.freshness) == nil, "too old")
        #expect(ledger.fresh(unit: "a.service", invocation: "4567ef01", now: read) == nil, "another instance")
        #expect(ledger.fresh(unit: "b.service", invocation: "0123abcd", now: read) == nil, "another unit")
    }

    @Test("a main process this daemon SIGKILLed is taken for gone only in that invocation, under that pid, and briefly")
    func aKilledMainProcessIsGone() {
        let registry = StandbyRegistry()
        let now = ContinuousClock.now
        let unit = "app.service"
        #expect(!registry.wasKilled(42, of: unit, invocation: "a", now: now))
        registry.killed(42, of: unit, invocation: "a", at: now)
        #expect(registry.wasKilled(42, of: unit, invocation: "a", now: now + .milliseconds(80)))
        #expect(!registry.wasKilled(43, of: unit, invocation: "a", now: now), "another main process (a standby that took over)")
        #expect(!registry.wasKilled(42, of: unit, invocation: "b", now: now), "another instance")
        #expect(!registry.wasKilled(42, of: "other.service", invocation: "a", now: now))
        #expect(!registry.wasKilled(42, of: unit, invocation: "a", now: now + StandbyRegistry.killedMemory))
    }

    @Test("a service runs only with a main process")
    func mainProcess() {
        #expect(SystemdUnitController.hasMainProcess(4242))
        #expect(!SystemdUnitController.hasMainProcess(0), "auto-restart: activating, nothing runs")
        #expect(!SystemdUnitController.hasMainProcess(nil))
    }

    @Test("a KillUnit that finds no process means the app is gone; no answer names the call and its bound; others pass through")
    func killFailures() {
        #expect(SystemdUnitController.killFailure(BusError(name: "org.freedesktop.systemd1.NoSuchProcess", message: "No main process to kill")) == nil)
        let silent = SystemdUnitController.killFailure(BusError(name: BusError.noReplyName, message: "Connection timed out"))
        #expect(silent?.name == BusError.noReplyName)
        #expect(silent?.message == "systemd did not answer KillUnit within 10.0 seconds")
        let denied = BusError(name: BusError.accessDeniedName, message: "Access denied")
        #expect(SystemdUnitController.killFailure(denied) == denied)
    }

    @Test("no such unit: systemd's NoSuchUnit or the bus's UnknownObject, nothing else")
    func noSuchUnit() {
        #expect(SystemdUnitController.meansNoSuchUnit(BusError(name: "org.freedesktop.systemd1.NoSuchUnit", message: "")))
        #expect(SystemdUnitController.meansNoSuchUnit(BusError(name: BusError.unknownObjectName, message: "")))
        #expect(!SystemdUnitController.meansNoSuchUnit(BusError(name: BusError.accessDeniedName, message: "")))
    }

    @Test("a start limit needs a burst and an interval; either at 0 turns it off")
    func startLimits() throws {
        let limit = try #require(SystemdUnitController.startLimit(burst: 5, intervalUSec: 10_000_000))
        #expect(limit.burst == 5 && limit.interval == .seconds(10))
        #expect(SystemdUnitController.startLimit(burst: 0, intervalUSec: 10_000_000) == nil)
        #expect(SystemdUnitController.startLimit(burst: 5, intervalUSec: 0) == nil)
    }

    @Test("the failure state is reset once permissiond's own recent kills reach half the burst, at least one")
    func resetAtHalfTheBurst() {
        #expect(!SystemdUnitController.resetsStartLimit(recentKills: 1, burst: 5))
        #expect(SystemdUnitController.resetsStartLimit(recentKills: 2, burst: 5))
        #expect(SystemdUnitController.resetsStartLimit(recentKills: 3, burst: 5))
        #expect(!SystemdUnitController.resetsStartLimit(recentKills: 0, burst: 1))
        #expect(SystemdUnitController.resetsStartLimit(recentKills: 1, burst: 1))
    }

    @Test("the ledger counts a unit's kills within the interval before now, and forgets older ones")
    func ledger() {
        let ledger = StartLimitLedger()
        let start = ContinuousClock.now
        ledger.record(unit: "a.service", at: start)
        ledger.record(unit: "a.service", at: start + .seconds(5))
        ledger.record(unit: "b.service", at: start + .seconds(5))
        #expect(ledger.count(unit: "a.service", within: .seconds(10), now: start + .seconds(6)) == 2)
        #expect(ledger.count(unit: "a.service", within: .seconds(10), now: start + .seconds(10)) == 1, "the first is 10 s old: out")
        #expect(ledger.count(unit: "a.service", within: .seconds(60), now: start + .seconds(11)) == 1, "an old kill once dropped stays dropped")
        ledger.forget(unit: "a.service")
        #expect(ledger.count(unit: "a.service", within: .seconds(60), now: start + .seconds(11)) == 0)
        #expect(ledger.count(unit: "b.service", within: .seconds(60), now: start + .seconds(11)) == 1)
    }
}

@Suite("Which calls the bus loop resolves the sender's uid for")
struct SenderUIDTests {
    @Test("TestHook only: its root check needs the uid on the loop; the other methods ask off the loop")
    func onlyTestHook() {
        #expect(PermissionsBusServer.resolvesSenderUID("TestHook"))
        for member in ["Get", "List", "ListApps", "Set", "Reset", "LastKill", "Lifecycle"] {
            #expect(!PermissionsBusServer.resolvesSenderUID(member), "\(member)")
        }
    }
}
