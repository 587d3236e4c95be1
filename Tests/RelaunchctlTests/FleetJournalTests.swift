import FoundationEssentials
import Glibc
import Testing

/// One relaunch as journald writes it (permissiond's change and kill, systemd's exit, restart and
/// start, the app's restoration), in Journal Export Format, with the host's identity as given: fed to
/// the real systemd-journal-remote, it makes the file a fleet's receiver writes for that host.
enum ExportedRelaunch {
    static let remote = "/lib/systemd/systemd-journal-remote"

    /// The relaunched instance's trusted fields (as journald writes them for checkin-demo.service).
    static let relaunchedApp = ["_SYSTEMD_UNIT": "checkin-demo.service", "_SYSTEMD_INVOCATION_ID": String(repeating: "e", count: 32),
                                "_UID": "1000", "_PID": "700", "_COMM": "checkin-demo"]

    /// The export stream of host `hostname` (its `_MACHINE_ID` and `_BOOT_ID` too); the unit's
    /// invocation ids are the same for every host, as on hosts made from one image. `extra` entries
    /// (µs after the change, fields) go in among the others by time.
    /// With `appLast`, the app's entries come after all the others, as they reach a receiver whose
    /// host uploads each journal namespace on its own (the app's namespace last), times unchanged.
    static func stream(
        hostname: String, machine: String, boot: String, extra: [(UInt64, [String: String])] = [], appLast: Bool = false
    ) -> String {
        let t0: UInt64 = 1_772_442_000_000_000
        let daemon = ["_SYSTEMD_UNIT": "permissiond.service", "_UID": "991", "_COMM": "permissiond", "_PID": "300"]
        let pid1 = ["_PID": "1", "_UID": "0", "_COMM": "systemd"]
        let app = relaunchedApp
        let unit = ["UNIT": "checkin-demo.service"]
        let old = ["INVOCATION_ID": String(repeating: "d", count: 32)]
        let new = ["INVOCATION_ID": String(repeating: "e", count: 32)]
        let entries: [(UInt64, [String: String])] = [
            (900, pid1.merging(unit) { $1 }.merging(old) { $1 }.merging(
                ["MESSAGE_ID": "98e322203f7a4ed290d09fe03c09fe15", "EXIT_CODE": "killed", "EXIT_STATUS": "9"]) { $1 }),
            (1_500, daemon.merging(["MESSAGE_ID": "9b3f5994e16840eb93c15d94fb1674bd", "APP_ID": "checkin-demo",
                                    "PERMISSION": "camera", "OLD_STATE": "denied", "NEW_STATE": "allowed",
                                    "CALLER_UID": "0", "KILL": "true", "CHANGED_USEC": "\(t0)"]) { $1 }),
            (1_600, daemon.merging(["MESSAGE_ID": "cec8a90c402d4067a74cf3669006da0e", "APP_ID": "checkin-demo",
                                    "PERMISSION": "camera", "UNIT": "checkin-demo.service", "SIGNAL": "KILL",
                                    "KILLED_USEC": "\(t0 + 400)"]) { $1 }),
            (101_000, pid1.merging(unit) { $1 }.merging(old) { $1 }.merging(
                ["MESSAGE_ID": "5eb03494b6584870a536b337290809b3", "N_RESTARTS": "1"]) { $1 }),
            (130_000, app.merging(["MESSAGE_ID": "0c0151517edf47b1a988576b4b5e81e0", "RESTORED_COUNT": "2",
                                   "PRESENTED_PATH": "", "DURATION_USEC": "40"]) { $1 }),
            (130_500, app.merging(["MESSAGE_ID": "0c3ece682843457296ab0da296a09171", "LAUNCH_OUTCOME": "restored",
                                   "BUILD_NUMBER": "7"]) { $1 }),
            (131_000, pid1.merging(unit) { $1 }.merging(new) { $1 }.merging(
                ["MESSAGE_ID": "39f53479d3a045ac8e11786248231fbf"]) { $1 }),
        ]
        var text = ""
        var all = (entries + extra).enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
        if appLast {
            let isApp = { (entry: (UInt64, [String: String])) in entry.1["_SYSTEMD_UNIT"] == app["_SYSTEMD_UNIT"] }
            all = all.filter { !isApp($0) } + all.filter(isApp)
        }
        for (index, (offset, fields)) in all.enumerated() {
            let usec = t0 + offset
            let monotonic = 5_000_000 + offset
            text += "__CURSOR=s=\(machine);i=\(index + 1);b=\(boot);m=\(String(monotonic, radix: 16));t=\(String(usec, radix: 16));x=\(index)\n"
            text += "__REALTIME_TIMESTAMP=\(usec)\n__MONOTONIC_TIMESTAMP=\(monotonic)\n"
            text += "_BOOT_ID=\(boot)\n_MACHINE_ID=\(machine)\n_HOSTNAME=\(hostname)\n"
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) { text += "\(name)=\(value)\n" }
            text += "\n"
        }
        return text
    }

    /// Writes `folder/remote-HOSTNAME.journal` through systemd-journal-remote.
    static func write(
        hostname: String, machine: String, boot: String, into folder: String, extra: [(UInt64, [String: String])] = [],
        appLast: Bool = false
    ) throws {
        let export = folder + "/" + hostname + ".export"
        guard let file = fopen(export, "w") else { throw TestFailure("cannot write \(export)") }
        fputs(stream(hostname: hostname, machine: machine, boot: boot, extra: extra, appLast: appLast), file)
        fclose(file)
        defer { unlink(export) }
        let result = try Executable.run(
            ["-c", "exec \(remote) --output=\(folder)/remote-\(hostname).journal --split-mode=none - < \(export)"],
            program: "/bin/sh")
        guard result.status == 0 else { throw TestFailure("systemd-journal-remote failed: \(result.stderr)") }
    }
}

/// `relaunchctl journal --json` as far as these tests read it.
struct ReviewJSON: Decodable {
    struct Incident: Decodable {
        struct Event: Decodable { var kind: String }
        var host: String
        var machineID: String
        var app: String
        var events: [Event]
    }
    struct Totals: Decodable {
        var incidents: Int
        var kills: Int
        var restores: Int
        var machineID: String?
    }
    struct Summary: Decodable {
        var incidents: Int
        var kills: Int
        var byHost: [String: Totals]
        var byApp: [String: Totals]
        var ignoredByReason: [String: Int]?
    }
    var incidents: [Incident]
    var summary: Summary
}
