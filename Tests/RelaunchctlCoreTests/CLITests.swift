import Glibc
import RelaunchContract
import RelaunchctlCore
import Systemd
import Testing

@Suite("relaunchctl's errors, waits and process checks")
struct CLITests {
    @Test("an error is one line: every kind of line break folded, a usage text kept whole")
    func errorLines() {
        #expect(errorLine("cannot read\nthe file\r\nat all\rnow") == "relaunchctl: cannot read the file at all now\n")
        #expect(errorLine("a line\u{2028}separator") == "relaunchctl: a line separator\n")
        #expect(errorLine("plain") == "relaunchctl: plain\n")
        #expect(errorLine("OVERVIEW: relaunchctl\n\nUSAGE: x\n") == "relaunchctl: OVERVIEW: relaunchctl\n\nUSAGE: x\n")
    }

    @Test("an error that quotes an app or the bus is inert: its control characters escaped, an Echo quote kept as it is")
    func errorLinesAreInert() {
        let app = cliError(BusError(name: "org.relaunch.App1.Error.InvalidInput", message: "no field '\u{1B}]0;pwned\u{07}'"),
                           talkingTo: "checkin-demo", hint: "h")
        #expect(errorLine(app.message) == #"relaunchctl: checkin-demo: no field '\x1b]0;pwned\a'"# + "\n")
        #expect(errorLine("tab\there, DEL\u{7F}, CSI\u{9B}") == #"relaunchctl: tab\there, DEL\x7f, CSI\xc2\x9b"# + "\n")
        // Echo's own escapes pass through unchanged: escaping again changes nothing.
        let quoted = "unknown app \(Echo.quoted("a\u{7}b"))"
        #expect(errorLine(quoted) == "relaunchctl: " + quoted + "\n")
    }

    @Test("bus failures map to the contract's exit codes: 77 refused, 69 unreachable, 2 bad arguments, 1 other")
    func busFailures() {
        let denied = cliError(BusError(name: BusError.accessDeniedName, message: "uid 1000 may not"), talkingTo: "permissiond", hint: "h")
        #expect(denied.code == .notAuthorized)
        #expect(denied.message == "not authorized: uid 1000 may not (run as root, or as a member of the group 'relaunch')")
        let daemonsOwn = cliError(BusError(name: BusError.accessDeniedName, message: "only root may"), talkingTo: "permissiond", hint: "h")
        #expect(daemonsOwn.message == "not authorized: only root may")
        let gone = cliError(BusError(name: BusError.serviceUnknownName, message: "no owner"), talkingTo: "checkin-demo", hint: "start it")
        #expect(gone.code == .unavailable)
        #expect(gone.message == "checkin-demo is not reachable on the system bus (no owner); start it")
        let bad = cliError(BusError.invalidArgs("unknown app 'x'"), talkingTo: "permissiond", hint: "h")
        #expect(bad.code == .usage && bad.message == "unknown app 'x'")
        let other = cliError(BusError(name: BusError.failedName, message: "disk full"), talkingTo: "permissiond", hint: "h")
        #expect(other.code == .failed && other.message == "permissiond: disk full")
    }

    @Test("a window is named by its place among the open ones, from 1")
    func windowsByPlace() throws {
        let open = [
            AppScene(session: "s-one", title: "", activityType: ""),
            AppScene(session: "s-two", title: "", activityType: ""),
        ]
        #expect(try AppCLIClient.session(ofWindow: 1, among: open, app: "notes-demo") == "s-one")
        #expect(try AppCLIClient.session(ofWindow: 2, among: open, app: "notes-demo") == "s-two")
        for number in [0, 3, -1] {
            let error = #expect(throws: CLIError.self) { try AppCLIClient.session(ofWindow: number, among: open, app: "notes-demo") }
            #expect(error?.code == .failed)
            #expect(error?.message == "notes-demo has 2 windows open, not \(number)")
        }
        let one = #expect(throws: CLIError.self) { try AppCLIClient.session(ofWindow: 2, among: [open[0]], app: "notes-demo") }
        #expect(one?.message == "notes-demo has 1 window open, not 2")
    }

    @Test("A quit is over once the unit runs no process of the quit instance")
    func quitIsOver() {
        for state in ["active", "reloading", "activating", "deactivating"] {
            #expect(!AppCLIClient.hasExited(activeState: state, invocationID: "abc", quit: "abc"), "\(state)")
        }
        #expect(AppCLIClient.hasExited(activeState: "inactive", invocationID: "abc", quit: "abc"))
        #expect(AppCLIClient.hasExited(activeState: "failed", invocationID: "abc", quit: "abc"))
        #expect(AppCLIClient.hasExited(activeState: "active", invocationID: "def", quit: "abc"), "another instance runs")
    }

    @Test("a wait looks until the condition holds, counting 'unavailable' as not yet")
    func waitLooksAgain() throws {
        var looks = 0
        let value = try waitFor("never", timeout: .seconds(600), interval: 1) { () throws(CLIError) -> Probe<Int> in
            looks += 1
            if looks == 1 { return .notYet("first") }
            if looks == 2 { throw CLIError(.unavailable, "not on the bus yet") }
            return .done(looks)
        }
        #expect(value == 3)
    }

    @Test("a wait looks at least once, and its timeout says what it waited for and what it saw last")
    func waitTimesOut() {
        var looks = 0
        let error = #expect(throws: CLIError.self) {
            try waitFor("checkin-demo was not ready", timeout: .zero, interval: 1) { () throws(CLIError) -> Probe<Int> in
                looks += 1
                // A wait that goes on past its deadline fails here rather than never ending.
                if looks > 1 { throw CLIError(.failed, "looked again after the deadline") }
                return .notYet("still launching")
            }
        }
        #expect(looks == 1)
        #expect(error?.code == .unavailable)
        #expect(error?.message == "checkin-demo was not ready within the timeout: still launching")
    }

    @Test("a failure other than 'unavailable' ends a wait at once")
    func waitEndsOnFailure() {
        var looks = 0
        let error = #expect(throws: CLIError.self) {
            try waitFor("x", timeout: .seconds(600), interval: 1) { () throws(CLIError) -> Probe<Int> in
                looks += 1
                // A wait that looked again would end here, without the failure.
                if looks > 1 { return .done(looks) }
                throw CLIError(.notAuthorized, "not authorized: no")
            }
        }
        #expect(looks == 1 && error?.code == .notAuthorized)
    }

    @Test("a live process is alive; an exited one not yet reaped (a zombie) is not, nor are pids that are not numbers")
    func liveness() throws {
        #expect(UnitState.isAlive(pid: String(getpid())))
        // 4194304 is above the largest pid_max: no such process can exist.
        for pid in ["0", "-1", "", "abc", "1x", "4194304"] { #expect(!UnitState.isAlive(pid: pid), "\(pid)") }
        var child: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { for arg in argv { free(arg) } }
        try #require(posix_spawn(&child, "/bin/true", nil, nil, argv, nil) == 0)
        // Wait for it to exit without reaping it: it stays a zombie until waitpid below.
        var info = siginfo_t()
        try #require(waitid(P_PID, id_t(child), &info, WEXITED | WNOWAIT) == 0)
        #expect(!UnitState.isAlive(pid: String(child)), "a zombie counts as gone")
        var status: Int32 = 0
        _ = waitpid(child, &status, 0)
    }

    @Test("a process's state is read after the last ')' of its stat line, whatever its command name holds")
    func statLines() {
        #expect(UnitState.processState(statLine: "42 (sleep) S 1 42 42 0") == "S")
        #expect(UnitState.processState(statLine: "42 (odd) Z (name)  R 1 42") == "R")
        #expect(UnitState.processState(statLine: "42 (gone) Z 1") == "Z")
        #expect(UnitState.processState(statLine: "") == nil)
        #expect(UnitState.processState(statLine: "42 (cut") == nil)
        #expect(UnitState.processState(statLine: "42 (cut)") == nil)
    }

    /// Journal entries in memory, read as sd-journal reads them: next() moves, field() reads.
    final class Entries: JournalEntries {
        let entries: [[String: String]]
        var position = -1
        init(_ entries: [[String: String]]) { self.entries = entries }
        func next() throws(SystemdError) -> Bool {
            guard position + 1 < entries.count else { return false }
            position += 1
            return true
        }
        func field(_ name: String) throws(SystemdError) -> String? { entries[position][name] }
    }

    @Test("an expectation counts the entries that have every wanted field, and only those before its marker")
    func journalCounts() throws {
        let entries: [[String: String]] = [
            ["MESSAGE_ID": "a", "APP": "checkin-demo"],
            ["MESSAGE_ID": "a", "APP": "banca-demo"],
            ["MESSAGE_ID": "b", "APP": "checkin-demo"],
            ["MESSAGE_ID": "a", "APP": "checkin-demo", "EXTRA": "x"],
            ["RELAUNCH_SCENARIO_MARKER": "m1"],
            ["MESSAGE_ID": "a", "APP": "checkin-demo"],
        ]
        let wanted = JournalQuery.fieldMatches(["MESSAGE_ID=a", "APP=checkin-demo"])
        let all = try JournalQuery.count(in: Entries(entries), matching: wanted, stopAt: nil)
        #expect(all.count == 3 && !all.stopSeen)
        let beforeMarker = try JournalQuery.count(in: Entries(entries), matching: wanted, stopAt: ("RELAUNCH_SCENARIO_MARKER", "m1"))
        #expect(beforeMarker.count == 2 && beforeMarker.stopSeen)
        let otherMarker = try JournalQuery.count(in: Entries(entries), matching: wanted, stopAt: ("RELAUNCH_SCENARIO_MARKER", "m2"))
        #expect(otherMarker.count == 3 && !otherMarker.stopSeen)
        #expect(try JournalQuery.count(in: Entries(entries), matching: [], stopAt: nil).count == entries.count)
        let none = try JournalQuery.count(in: Entries([]), matching: wanted, stopAt: nil)
        #expect(none.count == 0 && !none.stopSeen)
    }

    @Test("with journal namespaces, an entry counts until the marker of its own journal, and the count stops at the last marker")
    func journalCountsAcrossNamespaces() throws {
        // The marker went to three journals; each journald kept its own order, and an app's entry
        // sent before the marker was stamped after the default journal's marker.
        let marker = ["RELAUNCH_SCENARIO_MARKER": "m1", JournalQuery.markerJournalsField: "3"]
        let entries: [[String: String]] = [
            ["MESSAGE_ID": "a", "_NAMESPACE": "relaunch-checkin"],
            marker,
            ["MESSAGE_ID": "a"],
            ["MESSAGE_ID": "a", "_NAMESPACE": "relaunch-checkin"],
            marker.merging(["_NAMESPACE": "relaunch-checkin"]) { $1 },
            ["MESSAGE_ID": "a", "_NAMESPACE": "relaunch-checkin"],
            ["MESSAGE_ID": "a", "_NAMESPACE": "relaunch-permissiond"],
            marker.merging(["_NAMESPACE": "relaunch-permissiond"]) { $1 },
            ["MESSAGE_ID": "a", "_NAMESPACE": "relaunch-permissiond"],
        ]
        let wanted = JournalQuery.fieldMatches(["MESSAGE_ID=a"])
        let counted = try JournalQuery.count(in: Entries(entries), matching: wanted, stopAt: ("RELAUNCH_SCENARIO_MARKER", "m1"))
        #expect(counted.count == 3 && counted.stopSeen)
        // Not every journal's marker seen yet: not proven.
        let partial = try JournalQuery.count(in: Entries(Array(entries.prefix(6))), matching: wanted, stopAt: ("RELAUNCH_SCENARIO_MARKER", "m1"))
        #expect(partial.count == 2 && !partial.stopSeen)
    }

    @Test("FIELD=VALUE matches split at the first '='; one without '=' is left out")
    func matchesParse() {
        let pairs = JournalQuery.fieldMatches(["A=1", "B=x=y", "C=", "broken"])
        #expect(pairs.map(\.field) == ["A", "B", "C"])
        #expect(pairs.map(\.value) == ["1", "x=y", ""])
    }

    @Test("realtime microseconds lie between two readings of CLOCK_REALTIME taken around them")
    func realtimeClock() {
        func reading() -> UInt64 {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec / 1000)
        }
        let before = reading()
        let value = realtimeMicroseconds()
        let after = reading()
        #expect(before <= value && value <= after, "\(before) <= \(value) <= \(after)")
    }
}
