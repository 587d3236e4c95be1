import Foundation
import RelaunchContract
import RelaunchTestSupport
import Systemd

/// checkin-demo as the fault and flood suites drive it, beyond what AppChecksSupport's `Demo` does
/// for every suite. Every step that waits has a bound.
extension Demo {
    static let stateDirectory = "/var/lib/checkin-demo"

    static func invocation() throws -> String { try Units.property(unit, "InvocationID") }

    /// A fresh start of the app (drops its fd store), ready again.
    static func restart() throws {
        try Command.expect(0, ["systemctl", "restart", unit])
        try waitReady()
    }

    /// Waits until the instance INVOCATION logged an entry with MESSAGE_ID for which `condition` holds.
    @discardableResult
    static func waitForEntry(
        _ invocation: String, _ messageID: String, _ what: String, field: String,
        where condition: @escaping (JournalEntry) -> Bool
    ) throws -> JournalEntry {
        try FaultJournal.waitFor(what, ["_SYSTEMD_INVOCATION_ID": invocation, "MESSAGE_ID": messageID], field: field, where: condition)
    }

    /// Waits until the instance INVOCATION logged a line containing TEXT.
    @discardableResult
    static func waitForWarning(_ invocation: String, _ text: String) throws -> JournalEntry {
        try FaultJournal.waitFor("an entry of \(invocation) containing '\(text)'", ["_SYSTEMD_INVOCATION_ID": invocation], field: "MESSAGE") {
            $0.message?.contains(text) == true
        }
    }

    /// The running instance says, in both launch entries, that COPY restored it.
    static func expectRestored(from copy: String, invocation: String) throws {
        for (id, name) in [(MessageID.restorationFinished.rawValue, "restoration finished"), (MessageID.appLaunched.rawValue, "app launched")] {
            let entries = try Journal.entries(["_SYSTEMD_INVOCATION_ID": invocation, "MESSAGE_ID": id], timeout: .seconds(60))
            try Assert.equal(copy, entries.map { $0["ARCHIVE_SOURCE"] ?? "null" }.joined(separator: "\n"), "ARCHIVE_SOURCE of \(name)")
        }
    }

    /// With the modal open holding NOTE: to the background (preserved when the call returns), SIGKILL,
    /// the relaunch, the modal back; then the killed instance's `state preserved` must say
    /// ARCHIVE_COPIES=COPIES. Returns the old and the new InvocationID.
    @discardableResult
    static func backgroundThenKill(_ note: String, copies: String) throws -> (old: String, new: String) {
        try call("Background")
        let instances = try killAndWait("KILL")
        try assertRestored(note)
        try waitForEntry(instances.old, MessageID.statePreserved.rawValue, "the killed instance's 'state preserved' with ARCHIVE_COPIES=\(copies)",
                         field: "ARCHIVE_COPIES") { $0["ARCHIVE_COPIES"] == copies }
        return instances
    }

    /// The camera the running app says it has (`relaunchctl app state --json`, .camera).
    static func camera() throws -> String {
        let said = try Command.run(["relaunchctl", "app", "state", "--json"])
        guard said.status == 0 else { return said.output }
        return JSON.text(JSON.value(try? JSON.parse(said.stdout), ["camera"]))
    }

    /// The running app comes to say camera STATE (it learns without a kill, from Changed or its first Get).
    static func waitForCamera(_ state: String) throws {
        try waitUntil("the app to say camera \(state)") {
            let seen = try camera()
            return (seen == state, "the app says camera \(seen)")
        }
    }
}

/// A check's cleanup in a `defer`, which cannot throw.
enum Cleanup {
    /// Runs an undo step: a failure is printed, not lost, and the next undo step still runs.
    static func undo(_ what: String, _ step: () throws -> Void) {
        do { try step() } catch { print("warning: undoing \(what) failed: \(error)") }
    }
}

/// Journal waits whose failure says what was awaited and the field it looked at in what it found.
enum FaultJournal {
    @discardableResult
    static func waitFor(
        _ what: String, _ matches: [String: String], after mark: Journal.Mark? = nil, timeout: Duration = .seconds(60),
        field: String, where condition: @escaping (JournalEntry) -> Bool
    ) throws -> JournalEntry {
        do {
            let found = try Journal.entries(matches, after: mark, timeout: timeout) { $0.contains(where: condition) }
            guard let entry = found.first(where: condition) else { throw CheckFailure("no entry") }
            return entry
        } catch is CheckFailure {
            let seen = (try? Journal.entries(matches, after: mark, timeout: .zero) { _ in true }) ?? []
            throw CheckFailure(
                "timed out after \(timeout) waiting for \(what); \(seen.count) entries with \(matches), their \(field): "
                    + (seen.isEmpty ? "none" : seen.map { $0[field] ?? "(none)" }.joined(separator: " | ")))
        }
    }
}

extension Permissiond {
    /// `relaunchctl permission set APP camera STATE` as root, whatever it answers.
    static func setCameraAnyway(_ state: String, app: String = app) {
        _ = try? Command.run(["relaunchctl", "permission", "set", app, "camera", state])
    }

    /// The InvocationID LastKill names (its first string).
    static func lastKilledInvocation(_ app: String = app) throws -> String {
        let words = try lastKill(app).replacingOccurrences(of: "\"", with: "").split(separator: " ")
        return words.count > 1 ? String(words[1]) : ""
    }
}

extension Units {
    /// Waits until PROPERTY of UNIT is no longer `old` (a new InvocationID, a new MainPID).
    static func waitForChange(_ unit: String, _ name: String, from old: String, timeout: Duration = .seconds(60)) throws {
        try waitUntil("\(name) of \(unit) to change from \(old)", timeout: timeout) {
            let now = try property(unit, name)
            return (now != old, "\(name)=\(now)")
        }
    }

    /// A runtime drop-in NAME for UNIT holding TEXT, then a daemon-reload.
    static func addDropIn(_ unit: String, _ name: String, _ text: String) throws {
        let folder = "/run/systemd/system/\(unit).d"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: "\(folder)/\(name)", atomically: true, encoding: .utf8)
        try Command.expect(0, ["systemctl", "daemon-reload"])
    }

    /// Removes the drop-in NAME of UNIT and reloads.
    static func removeDropIn(_ unit: String, _ name: String) throws {
        let file = "/run/systemd/system/\(unit).d/\(name)"
        if FileManager.default.fileExists(atPath: file) { try FileManager.default.removeItem(atPath: file) }
        try Command.expect(0, ["systemctl", "daemon-reload"])
    }
}

/// A filesystem's free space as `df --output=avail` says it, in KiB.
func freeKiB(_ path: String) throws -> String {
    try Command.expect(0, ["df", "--output=avail", path]).stdout
        .split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
}

/// Fills the filesystem of FOLDER with a file NAME of zeros (root has no reserve on tmpfs) until a
/// write fails.
func fill(_ folder: String, name: String = ".relaunch-check-filler") throws {
    _ = try Command.run(["dd", "if=/dev/zero", "of=\(folder)/\(name)", "bs=4096"], timeout: .seconds(300))
}

/// A command left running while the check goes on (the burst, a call that hangs), ended by `end()`:
/// waited for with a bound, then killed.
final class Background {
    private let process = Process()

    init(_ argv: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = argv
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Waits up to `timeout` for the command to exit, then SIGKILLs it.
    func end(timeout: Duration = .seconds(120)) {
        let process = process
        do {
            try waitUntil("the background command to exit", timeout: timeout) { (!process.isRunning, "still running") }
        } catch {
            print("warning: \(error); killing it")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }
}
