import JournalReview
import RelaunchContract
import Testing

/// Entries as a user without privileges writes them with `logger --journald`: any MESSAGE_ID and
/// fields it likes, but journald's `_` fields are its own (uid 65534, a login session's scope).
extension JournalScript {
    static let forgerFields = ["_SYSTEMD_UNIT": "session-3.scope", "_UID": "65534", "_PID": "4242", "_COMM": "logger"]

    mutating func forge(_ id: String, _ fields: [String: String], trusted: [String: String] = forgerFields) {
        var all = fields
        all["MESSAGE_ID"] = id
        all.merge(trusted) { $1 }
        records.append(JournalRecord(realtimeUSec: now, fields: all))
    }

    /// A forged change of checkin-demo's camera, with its kill entry, from `trusted` fields.
    mutating func forgeChangeAndKill(trusted: [String: String] = forgerFields) {
        forge(MessageID.permissionChanged.rawValue, [
            "APP_ID": "checkin-demo", "PERMISSION": "camera", "OLD_STATE": "allowed", "NEW_STATE": "denied",
            "CALLER_UID": "4242", "KILL": "true",
        ], trusted: trusted)
        forge(MessageID.appKilled.rawValue, [
            "APP_ID": "checkin-demo", "UNIT": unit, "PERMISSION": "camera", "SIGNAL": "KILL",
        ], trusted: trusted)
    }

    /// A forged "main process exited" of checkin-demo.service that merely carries `UNIT=`.
    mutating func forgeExit(trusted: [String: String] = forgerFields) {
        forge(ManagerMessageID.processExited.rawValue, [
            "UNIT": unit, "INVOCATION_ID": "forged", "EXIT_CODE": "killed", "EXIT_STATUS": "9",
        ], trusted: trusted)
    }
}

/// The timeline of `records` both ways the code builds it, checked to agree.
private func timeline(_ records: [JournalRecord], trust: JournalTrust = JournalMaker.trust)
    -> (incidents: [Incident], ignored: [String: Int])
{
    let report = TimelineReport(records: records, trust: trust)
    let streamed = StreamedTimeline(records, trust: trust)
    var streamedSummary = TimelineSummary(streamed.incidents)
    streamedSummary.addIgnored(streamed.ignored)
    #expect(streamed.incidents == report.incidents)
    #expect(streamedSummary == report.summary)
    return (report.incidents, report.summary.ignoredByReason)
}

@Suite("Journal timeline: what it trusts")
struct JournalTrustTests {
    @Test("A forged change and kill from a user's session make no incident and are counted")
    func forgedChangeIgnored() {
        var script = JournalScript()
        script.forgeChangeAndKill()
        script.advance(1_000)
        script.forgeExit()
        let (incidents, ignored) = timeline(script.records)
        #expect(incidents.isEmpty)
        #expect(ignored == ["permission-entry-not-from-permissiond": 2, "unit-entry-not-from-pid-1": 1])
    }

    @Test("permissiond's unit with another uid does not count; with its uid it does")
    func permissiondUser() {
        var script = JournalScript()
        var helper = JournalScript.forgerFields
        helper["_SYSTEMD_UNIT"] = JournalTrust.permissiondUnit
        helper["_UID"] = "0"
        script.forgeChangeAndKill(trusted: helper)
        #expect(timeline(script.records).ignored == ["permission-entry-not-from-permissiond-user": 2])
        let (incidents, ignored) = timeline(script.records.map { record in
            var record = record
            record.fields["_UID"] = JournalMaker.permissiondUID
            return record
        })
        #expect(incidents.map(\.callerUID) == ["4242"])
        #expect(ignored.isEmpty)
        // No user named relaunch-permissiond: none of its entries count.
        let unknown = JournalTrust(permissiondUser: .unknown, registry: JournalMaker.registry)
        #expect(timeline(script.records, trust: unknown).incidents.isEmpty)
    }

    @Test("Another machine's journal: permissiond's uid is the one its daemon's entries show, per machine")
    func uidShownByItsEntries() {
        var script = JournalScript()
        script.killAndRestore(from: "denied", to: "allowed", oldInvocation: "a", newInvocation: "b", relaunch: 30_000)
        // journald writes _MACHINE_ID on every entry of a machine.
        for index in script.records.indices {
            script.records[index].fields["_MACHINE_ID"] = "m1"
        }
        var other = JournalScript()
        other.advance(5_000_000)
        other.killAndRestore(from: "allowed", to: "denied", oldInvocation: "x", newInvocation: "y", relaunch: 20_000)
        for index in other.records.indices {
            other.records[index].fields["_MACHINE_ID"] = "m2"
            if other.records[index]["_SYSTEMD_UNIT"] == JournalTrust.permissiondUnit { other.records[index].fields["_UID"] = "977" }
        }
        // On m1, a helper of permissiond.service (not the daemon) with another uid.
        var helper = JournalScript.forgerFields
        helper["_SYSTEMD_UNIT"] = JournalTrust.permissiondUnit
        helper["_MACHINE_ID"] = "m1"
        var forged = JournalScript()
        forged.advance(9_000_000)
        forged.forgeChangeAndKill(trusted: helper)

        let shown = JournalTrust(permissiondUser: .shownByItsEntries, registry: JournalMaker.registry)
        let (incidents, ignored) = timeline(script.records + other.records + forged.records, trust: shown)
        #expect(incidents.map(\.callerUID) == ["0", "0"])
        #expect(incidents.map(\.relaunchUSec) == [30_000, 20_000])
        #expect(ignored == ["permission-entry-not-from-permissiond-user": 2])
    }

    @Test("systemd's entries count only from PID 1 as root, never because they carry UNIT=")
    func unitEntriesFromPID1() {
        var script = JournalScript()
        script.change("camera", "denied", "allowed", kill: true)
        script.advance(100)
        script.killed("camera")
        script.advance(100)
        // Forged before the real exit, as uid 65534 and as the app itself (not PID 1).
        script.forgeExit()
        script.forgeExit(trusted: ["_SYSTEMD_UNIT": script.unit, "_UID": "994", "_PID": "77"])
        script.forgeExit(trusted: ["_SYSTEMD_UNIT": "init.scope", "_UID": "65534", "_PID": "1"])
        script.advance(1_000)
        script.manager(.processExited, invocation: "old", extra: ["EXIT_CODE": "killed", "EXIT_STATUS": "9"])
        let (incidents, ignored) = timeline(script.records)
        #expect(incidents.count == 1)
        let exits = incidents[0].events.filter { $0.kind == .processExited }
        #expect(exits.map(\.invocationID) == ["old"])
        #expect(exits.map { $0.fields["_PID"] } == ["1"])
        #expect(ignored == ["unit-entry-not-from-pid-1": 3])
    }

    @Test("An app's entries count only from its registered unit, and join by that unit, not by fields it wrote")
    func appEntriesByUnit() {
        var script = JournalScript()
        script.change("camera", "denied", "allowed", kill: true)
        script.advance(100)
        script.killed("camera")
        script.advance(1_000)
        script.manager(.processExited, invocation: "old", extra: ["EXIT_CODE": "killed", "EXIT_STATUS": "9"])
        script.advance(20_000)
        // From an unregistered unit, claiming checkin-demo's unit and invocation: left out.
        script.forge(MessageID.appLaunched.rawValue, [
            "UNIT": script.unit, "APP_ID": "checkin-demo",
            "LAUNCH_OUTCOME": "discarded", "INVOCATION_ID": "new",
        ], trusted: ["_SYSTEMD_UNIT": "evil.service", "_UID": "65534", "_PID": "4242", "_SYSTEMD_INVOCATION_ID": "new"])
        // banca-demo's own unit, writing UNIT= and APP_ID= of checkin-demo: its entry is banca-demo's.
        script.forge(MessageID.savedStateDiscarded.rawValue, [
            "UNIT": script.unit, "APP_ID": "checkin-demo", "REASON": "corrupt",
        ], trusted: ["_SYSTEMD_UNIT": "banca-demo.service", "_UID": "993", "_PID": "88",
                     "_SYSTEMD_INVOCATION_ID": "banca"])
        script.advance(100)
        script.app(.appLaunched, invocation: "new", pid: "77", ["LAUNCH_OUTCOME": "restored", "APP_ID": "banca-demo"])
        script.manager(.started, invocation: "new")
        let (incidents, ignored) = timeline(script.records)
        #expect(incidents.count == 1)
        #expect(incidents[0].events.map(\.kind) == [
            .permissionChanged, .killSent, .processExited, .processStarted, .launched, .ready,
        ])
        #expect(incidents[0].launchOutcome == "restored")
        #expect(incidents[0].discardReasons.isEmpty)
        #expect(ignored == ["app-entry-not-from-registered-unit": 1])
    }

    @Test("A unit a believed kill names is its app's, registered here or not (another machine's journal)")
    func killedUnitIsRegistered() {
        var script = JournalScript()
        script.killAndRestore(from: "denied", to: "allowed", oldInvocation: "a", newInvocation: "b", relaunch: 30_000)
        let bare = JournalTrust(permissiondUser: .uid(991))
        let (incidents, ignored) = timeline(script.records, trust: bare)
        #expect(incidents.first?.relaunchUSec == 30_000)
        #expect(ignored.isEmpty)
    }

    @Test("Genuine journals lose nothing; forged entries mixed in change nothing but the count", arguments: 0..<10)
    func genuineAndForged(seed: UInt64) {
        let genuine = JournalMaker.journal(seed: seed, incidents: 30)
        let clean = timeline(genuine)
        #expect(clean.ignored.isEmpty)
        #expect(clean.incidents.count >= 30)

        var random = SeededGenerator(seed: seed)
        var mixed = genuine
        var forgedCount = 0
        for _ in 0..<20 {
            let at = Int.random(in: 0...mixed.count, using: &random)
            let usec = mixed[min(at, mixed.count - 1)].realtimeUSec
            var script = JournalScript()
            script.now = usec
            script.forgeChangeAndKill()
            script.forgeExit()
            mixed.insert(contentsOf: script.records, at: at)
            forgedCount += script.records.count
        }
        let dirty = timeline(mixed)
        #expect(dirty.incidents == clean.incidents)
        #expect(dirty.ignored.values.reduce(0, +) == forgedCount)
    }

    @Test("The text ends with what was left out and why; the JSON summary counts it")
    func summaryOfIgnored() throws {
        var script = JournalScript()
        script.killAndRestore(from: "denied", to: "allowed", oldInvocation: "a", newInvocation: "b", relaunch: 30_000)
        script.forgeChangeAndKill()
        script.forgeExit()
        let report = TimelineReport(records: script.records, trust: JournalMaker.trust)
        #expect(report.summary.ignoredEntries == 3)
        let text = TimelineRenderer.text(report.incidents, summary: report.summary)
        #expect(text.hasSuffix("""
            summary: 1 incident, 1 kill, 1 restore, 0 discards; relaunch median 30.0 ms, p95 30.0 ms
            ignored 3 entries: 2 permission entries not from permissiond.service, 1 unit entry not from PID 1

            """))
        var writer = TimelineJSONWriter()
        var out: [UInt8] = []
        writer.begin(into: &out)
        for incident in report.incidents { writer.add(incident, into: &out) }
        writer.end(report.summary, into: &out)
        let json = String(decoding: out, as: UTF8.self)
        #expect(json.contains("\"ignoredEntries\" : 3,"))
        #expect(json.contains("\"unit-entry-not-from-pid-1\" : 1"))
    }
}
