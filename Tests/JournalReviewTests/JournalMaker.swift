import JournalReview
import RelaunchContract

/// A random number generator that repeats itself for a seed (SplitMix64), so a failing journal can
/// be made again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Makes journals as the live system writes them, in journal order: permissiond's entries stamped by
/// journald after the kill they report (carrying CHANGED_USEC and KILLED_USEC), systemd's entries
/// about the apps' units, the relaunched apps' own entries, changes that do not kill, kills while the
/// relaunched app is restoring, times equal to the microsecond, and other units' entries with the
/// same MESSAGE_IDs.
struct JournalMaker {
    /// The uid permissiond's entries show (its user, as sysusers.d allocated it).
    static let permissiondUID = "991"
    /// The registry of the apps the journals are of.
    static let registry = AppRegistry(["checkin-demo", "banca-demo", "countries-demo"].map {
        AppRegistration(app: $0, unit: $0 + ".service")
    })
    /// The rules a journal of this machine is judged by: permissiond's uid from passwd, the registry.
    static let trust = JournalTrust(permissiondUser: .uid(991), registry: registry)

    private var random: SeededGenerator
    private var entries: [(usec: UInt64, order: Int, fields: [String: String])] = []
    private var invocations: [String: String] = [:]
    private var serial = 0
    private let apps = ["checkin-demo", "checkin-demo", "checkin-demo", "banca-demo", "countries-demo"]
    private let otherUnits = ["apt-daily.service", "logrotate.service", "nginx.service"]
    /// The share of changes that kill the app.
    private let killShare: Double

    init(seed: UInt64, killShare: Double) {
        random = SeededGenerator(seed: seed)
        self.killShare = killShare
    }

    /// The records of `incidents` incidents, in journal order; `killShare` of the changes kill.
    static func journal(seed: UInt64, incidents: Int, killShare: Double = 0.88) -> [JournalRecord] {
        var maker = JournalMaker(seed: seed, killShare: killShare)
        var slot: UInt64 = 1_700_000_000_000_000
        for _ in 0..<incidents {
            maker.incident(at: slot)
            slot += 2_000_000
        }
        return maker.records
    }

    var records: [JournalRecord] {
        entries.sorted { ($0.usec, $0.order) < ($1.usec, $1.order) }
            .map { JournalRecord(realtimeUSec: $0.usec, fields: $0.fields) }
    }

    private mutating func number(_ range: Range<UInt64>) -> UInt64 {
        UInt64.random(in: range, using: &random)
    }

    private mutating func chance(_ p: Double) -> Bool {
        Double.random(in: 0..<1, using: &random) < p
    }

    private mutating func newID() -> String {
        serial += 1
        return "inv" + String(serial) + String(repeating: "0", count: 8)
    }

    private mutating func add(_ usec: UInt64, _ fields: [String: String]) {
        entries.append((usec, entries.count, fields))
    }

    private mutating func invocation(of app: String) -> String {
        if let id = invocations[app] { return id }
        let id = newID()
        invocations[app] = id
        return id
    }

    private mutating func manager(_ usec: UInt64, _ id: ManagerMessageID, unit: String, invocation: String,
                                  _ extra: [String: String] = [:]) {
        var fields = ["MESSAGE_ID": id.rawValue, "UNIT": unit, "INVOCATION_ID": invocation, "_PID": "1",
                      "_UID": "0", "_SYSTEMD_UNIT": "init.scope", "MESSAGE": "\(unit): \(id)"]
        fields.merge(extra) { $1 }
        add(usec, fields)
    }

    private mutating func app(_ usec: UInt64, _ id: MessageID, app: String, invocation: String,
                              _ extra: [String: String] = [:]) {
        var fields = ["MESSAGE_ID": id.rawValue, "_SYSTEMD_UNIT": app + ".service",
                      "_SYSTEMD_INVOCATION_ID": invocation, "_PID": String(invocation.count * 7), "_UID": "993",
                      "SYSLOG_IDENTIFIER": app, "MESSAGE": "\(id.summary) \"quoted\" \\ /path\ttab"]
        fields.merge(extra) { $1 }
        add(usec, fields)
    }

    private mutating func daemon(_ usec: UInt64, _ id: MessageID, _ extra: [String: String]) {
        var fields = ["MESSAGE_ID": id.rawValue, "_SYSTEMD_UNIT": "permissiond.service",
                      "_SYSTEMD_INVOCATION_ID": "daemon0000000000", "_PID": "311",
                      "_UID": JournalMaker.permissiondUID, "_COMM": "permissiond"]
        fields.merge(extra) { $1 }
        add(usec, fields)
    }

    private mutating func incident(at slot: UInt64) {
        let app = apps[Int(number(0..<UInt64(apps.count)))]
        var t = slot + number(0..<100_000)
        // The running instance goes to the background first; its entries belong to no incident.
        self.app(t, .lifecycleChanged, app: app, invocation: invocation(of: app), ["LIFECYCLE": "background"])
        t += number(100..<900)
        self.app(t, .statePreserved, app: app, invocation: invocation(of: app), ["ARCHIVE_BYTES": "1573"])
        let tiePreserved = chance(0.1)
        let changed = tiePreserved ? t : t + number(100_000..<600_000)
        if !chance(killShare) {
            daemon(changed + number(200..<600), .permissionChanged, change(app, "location", changed, kill: false))
        } else {
            var at = changed
            if chance(0.1) { at = killAndRelaunch(app, changedAt: at, interrupt: true) + number(5..<40) }
            _ = killAndRelaunch(app, changedAt: at, interrupt: false)
        }
        for _ in 0..<number(2..<8) {
            let unit = otherUnits[Int(number(0..<UInt64(otherUnits.count)))]
            let kinds: [ManagerMessageID] = [.started, .processExited, .failed, .restartScheduled]
            manager(slot + number(0..<1_900_000), kinds[Int(number(0..<4))], unit: unit, invocation: newID(),
                    ["EXIT_CODE": "exited", "EXIT_STATUS": "1", "N_RESTARTS": "2", "UNIT_RESULT": "exit-code"])
        }
    }

    private mutating func change(_ app: String, _ permission: String, _ at: UInt64, kill: Bool) -> [String: String] {
        ["APP_ID": app, "PERMISSION": permission, "OLD_STATE": "denied", "NEW_STATE": "allowed",
         "CALLER_UID": "0", "KILL": kill ? "true" : "false", "CHANGED_USEC": String(at)]
    }

    /// A kill and the relaunch after it; returns when the new instance was ready, or with `interrupt`
    /// when it had restored one controller and went no further.
    private mutating func killAndRelaunch(_ app: String, changedAt changed: UInt64, interrupt: Bool) -> UInt64 {
        let unit = app + ".service"
        let old = invocation(of: app)
        let exited = changed + number(1_000..<2_500)
        let killedAt = chance(0.15) ? exited : changed + number(300..<900)
        let received = chance(0.5) ? exited + number(1..<800) : changed + number(200..<900)
        daemon(received, .permissionChanged, change(app, "camera", changed, kill: true))
        daemon(received + number(0..<60), .appKilled,
               ["APP_ID": app, "UNIT": unit, "PERMISSION": "camera", "SIGNAL": "KILL", "KILLED_USEC": String(killedAt)])
        manager(exited, .processExited, unit: unit, invocation: old, ["EXIT_CODE": "killed", "EXIT_STATUS": "9"])
        manager(exited + number(20..<200), .failed, unit: unit, invocation: old, ["UNIT_RESULT": "signal"])
        var t = exited + 100_000 + number(0..<5_000)
        manager(t, .restartScheduled, unit: unit, invocation: old, ["N_RESTARTS": "1"])
        let new = newID()
        invocations[app] = new
        t += number(20_000..<40_000)
        let roll = interrupt ? 1.0 : Double.random(in: 0..<1, using: &random)
        let outcome: String
        if roll < 0.15 {
            self.app(t, .savedStateDiscarded, app: app, invocation: new, ["REASON": "corrupt"])
            outcome = "discarded"
        } else if roll < 0.25 {
            outcome = "fresh"
        } else {
            for path in ["Root", "Root/Child", "Root/Child/Modal"] {
                t += number(10..<50)
                self.app(t, .viewControllerRestored, app: app, invocation: new,
                         ["RESTORATION_PATH": path, "RESTORED_VIA": "appDelegate"])
                if interrupt { return t }
            }
            t += number(10..<50)
            self.app(t, .restorationFinished, app: app, invocation: new,
                     ["RESTORED_COUNT": "3", "PRESENTED_PATH": chance(0.5) ? "Root/Child/Modal" : "", "DURATION_USEC": "55"])
            outcome = "restored"
        }
        t += number(100..<900)
        self.app(t, .appLaunched, app: app, invocation: new, ["LAUNCH_OUTCOME": outcome, "BUILD_NUMBER": "7"])
        let ready = t + number(0..<3_000)
        manager(ready, .started, unit: unit, invocation: new)
        self.app(ready + number(0..<900), .lifecycleChanged, app: app, invocation: new, ["LIFECYCLE": "active"])
        return ready
    }
}
