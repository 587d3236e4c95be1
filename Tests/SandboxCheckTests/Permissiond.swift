import Foundation
import RelaunchTestSupport

/// permissiond over the system bus, as root inside the sandbox, and the units it kills: what the bash
/// checks' pd_* and unit_* helpers did, once for every suite.
enum Permissiond {
    static let app = "checkin-demo"
    static let unit = "checkin-demo.service"
    /// The journal's MESSAGE_IDs the checks look for.
    static let killedID = "cec8a90c402d4067a74cf3669006da0e"
    static let changedID = "9b3f5994e16840eb93c15d94fb1674bd"
    /// systemd's "Main process exited".
    static let systemdExitID = "98e322203f7a4ed290d09fe03c09fe15"

    /// `busctl call` on Permissions1 (root); throws unless it exits 0. Its stdout, trimmed
    /// (`s "allowed"`, `(sssst) …`).
    @discardableResult
    static func call(_ method: String, _ signatureAndArguments: String...) throws -> String {
        try Command.expect(0, ["busctl", "call"] + Bus.permissions + [method] + signatureAndArguments).line
    }

    /// The state of PERMISSION for APP (`not-determined`, `allowed`, …).
    static func get(_ app: String, _ permission: String) throws -> String {
        let said = try call("Get", "ss", app, permission)
        return unquote(said.hasPrefix("s ") ? String(said.dropFirst(2)) : said)
    }

    /// A state different from `state`, so that a Set is a change.
    static func other(than state: String) -> String { state == "allowed" ? "denied" : "allowed" }

    /// LastKill of APP as busctl prints it.
    static func lastKill(_ app: String = app) throws -> String { try call("LastKill", "s", app) }

    /// Registers test apps without a running unit (never killed) in /run/relaunch/apps.d, reloads
    /// permissiond and returns once it serves them all.
    static func register(_ apps: String...) throws {
        try FileManager.default.createDirectory(atPath: "/run/relaunch/apps.d", withIntermediateDirectories: true)
        for app in apps {
            try "[App]\nUnit=relaunch-check-none.service\n".write(toFile: "/run/relaunch/apps.d/\(app).conf", atomically: true, encoding: .utf8)
        }
        try Command.expect(0, ["systemctl", "reload", "permissiond.service"])
        try waitUntil("permissiond to serve \(apps)") {
            let listed = try Command.run(["busctl", "call"] + Bus.permissions + ["ListApps"]).stdout
            return (apps.allSatisfy { listed.contains("\"\($0)\"") }, listed)
        }
    }

    /// Removes test apps registered by `register` and reloads permissiond.
    static func unregister(_ apps: String...) throws {
        for app in apps { try? FileManager.default.removeItem(atPath: "/run/relaunch/apps.d/\(app).conf") }
        try Command.expect(0, ["systemctl", "reload", "permissiond.service"])
    }

    /// A Set that may kill the app of `unit`; returns once a kill it caused is over (systemd restarted
    /// the app and it is active again), so the next step starts from a settled app.
    static func setSettled(_ app: String, _ permission: String, _ state: String, unit: String = unit) throws {
        let kill = try lastKill(app)
        let restarts = try Units.restarts(unit)
        try call("Set", "sss", app, permission, state)
        if try lastKill(app) != kill {
            try Units.waitForRestarts(unit, restarts + 1)
        }
        try Units.waitActive(unit)
    }

    private static func unquote(_ text: String) -> String {
        text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? String(text.dropFirst().dropLast()) : text
    }
}

/// systemd's units inside the sandbox, through systemctl.
enum Units {
    /// A unit property (`systemctl show -P`).
    static func property(_ unit: String, _ name: String) throws -> String {
        try Command.expect(0, ["systemctl", "show", "-P", name, unit]).line
    }

    static func restarts(_ unit: String) throws -> Int { Int(try property(unit, "NRestarts")) ?? -1 }

    /// Returns once the unit is active; throws after `timeout`, saying the state it last saw.
    static func waitActive(_ unit: String, timeout: Duration = .seconds(60)) throws {
        try waitUntil("\(unit) to be active", timeout: timeout) {
            let state = try Command.run(["systemctl", "is-active", unit]).line
            return (state == "active", "\(unit) is \(state.isEmpty ? "unknown" : state)")
        }
    }

    /// Returns once NRestarts of the unit is `count`.
    static func waitForRestarts(_ unit: String, _ count: Int, timeout: Duration = .seconds(60)) throws {
        try waitUntil("\(unit) NRestarts=\(count)", timeout: timeout) {
            let now = try restarts(unit)
            return (now == count, "\(unit) NRestarts=\(now)")
        }
    }
}

/// Every journald of the sandbox has written what it was sent: the default one (PID 1's entries) and
/// each namespace's (permissiond and every app log to one of their own, LogNamespace=).
func journalSync() throws {
    try Command.expect(0, ["journalctl", "--sync"])
    let folders = (try? FileManager.default.contentsOfDirectory(atPath: "/run/systemd")) ?? []
    for folder in folders where folder.hasPrefix("journal.") {
        guard FileManager.default.fileExists(atPath: "/run/systemd/\(folder)/io.systemd.journal") else { continue }
        try Command.expect(0, ["journalctl", "--namespace=\(folder.dropFirst("journal.".count))", "--sync"])
    }
}
