import Foundation
import RelaunchContract
import RelaunchTestSupport
import Testing

/// The system the sandbox runs, seen from inside: the units active and supervised, journald and the
/// system bus, the catalog, the units' verification and exposure. Works with the C stand-ins and with
/// the real programs. (What checks the sandbox from outside, scripts/sandbox's own contract, stays in
/// tests/sandbox/checks/sandbox.sh.)
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct SandboxSystemChecks {
    @Test func unitsActive() throws {
        for unit in ["permissiond.service", "checkin-demo.service"] {
            let state = try Command.run(["systemctl", "is-active", unit]).line
            #expect(state == "active", "\(unit) is \(state)")
        }
    }

    @Test func journalRoundTrip() throws {
        let token = "relaunch-journal-\(getpid())-\(UUID().uuidString.prefix(8))"
        try Command.expect(0, ["systemd-cat", "-t", "relaunch-check"], input: token + "\n")
        try waitUntil("'\(token)' in the journal") {
            let lines = try Command.run(["journalctl", "-t", "relaunch-check", "-o", "cat", "--no-pager"]).stdout
            return (lines.split(separator: "\n").contains { $0 == token }, "not among relaunch-check's entries")
        }
        // systemd's own entries about our units land in the journal too (the default log target).
        let unitLog = try Command.run(["journalctl", "-u", "checkin-demo.service", "-o", "cat", "--no-pager"]).stdout
        #expect(unitLog.contains("Started checkin-demo.service"), "systemd logged no start of checkin-demo; its entries: \(unitLog.suffix(400))")
    }

    @Test func systemBusNames() throws {
        let names = try Command.expect(0, ["busctl", "list", "--no-pager", "--acquired"]).stdout
        #expect(names.contains("org.freedesktop.systemd1"))
        #expect(names.contains("org.relaunch.Permissions1"))
        // The app takes its name only once it has restored and said READY=1.
        try waitUntil("org.relaunch.CheckInDemo1 on the bus") {
            let now = try Command.run(["busctl", "list", "--acquired", "--no-pager"]).stdout
            return (now.contains("org.relaunch.CheckInDemo1"), "not among the acquired names")
        }
    }

    /// Every id Relaunch itself writes has a catalog entry: a new id without one fails here.
    @Test func catalogHasEveryContractID() throws {
        let catalog = try Command.expect(0, ["journalctl", "--list-catalog", "--no-pager"]).stdout
        #expect(MessageID.allCases.count >= 8)
        let missing = MessageID.allCases.filter { !catalog.contains($0.rawValue) }.map { "\($0) (\($0.rawValue))" }
        #expect(missing.isEmpty, "journalctl --list-catalog lacks \(missing.joined(separator: ", "))")
    }

    @Test func unitsVerifyClean() throws {
        let repository = FileManager.default.currentDirectoryPath
        let verify = try Command.run([
            "systemd-analyze", "verify", "\(repository)/systemd/checkin-demo.service", "\(repository)/systemd/permissiond.service",
        ])
        #expect(verify.status == 0, "systemd-analyze verify failed: \(verify)")
        #expect(verify.output.isEmpty, "systemd-analyze verify said: \(verify.output)")
    }

    @Test(arguments: [("checkin-demo.service", 0.5), ("permissiond.service", 1.0)])
    func securityExposure(unit: String, limit: Double) throws {
        let report = try Command.run(["systemd-analyze", "security", "--no-pager", unit]).stdout
        // "→ Overall exposure level for checkin-demo.service: 0.4 SAFE 😀"
        let line = report.split(separator: "\n").first { $0.contains("Overall exposure level for ") }
        let number = line.flatMap { $0.split(separator: ":").last?.split(separator: " ").first }.flatMap { Double($0) }
        let exposure = try #require(number, "systemd-analyze security printed no score for \(unit)")
        print("note: systemd-analyze security \(unit): \(exposure) (limit \(limit))")
        #expect(exposure <= limit, "\(unit) exposure \(exposure) is above \(limit)")
    }

    @Test func killRelaunchesTheApp() throws {
        let unit = "checkin-demo.service"
        try Units.waitActive(unit)
        let restarts = try Units.restarts(unit)
        let pid = try Units.property(unit, "MainPID")
        try Command.expect(0, ["systemctl", "kill", "--signal=KILL", unit])
        try Units.waitForRestarts(unit, restarts + 1)
        try Units.waitActive(unit)
        #expect(try Units.property(unit, "MainPID") != pid, "MainPID did not change after SIGKILL")
        let log = try Command.run(["journalctl", "-u", unit, "-o", "cat", "--no-pager"]).stdout
        #expect(log.contains("status=9/KILL"), "systemd logged no SIGKILL exit of \(unit)")
    }

    @Test func appRunsAsItsUser() throws {
        #expect(try Units.property("checkin-demo.service", "User") == "relaunch-checkin")
        let pid = try Units.property("checkin-demo.service", "MainPID")
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let uid = status.split(separator: "\n").first { $0.hasPrefix("Uid:") }?
            .split(whereSeparator: \.isWhitespace).dropFirst().first.map(String.init)
        #expect(uid == (try Command.expect(0, ["id", "-u", "relaunch-checkin"]).line), "uid of checkin-demo's main process")
    }
}
