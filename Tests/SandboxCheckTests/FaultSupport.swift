import Foundation
import RelaunchTestSupport
import Systemd

/// checkin-demo driven as root over its bus and read back with busctl and the journal: what the bash
/// checks' demo_* helpers did, for the fault and flood suites. Every step that waits has a bound.
enum FaultApp {
    static let unit = Permissiond.unit
    static let bus = Bus.checkIn
    static let stateDirectory = "/var/lib/checkin-demo"
    static let archive = "/var/lib/checkin-demo/restoration.archive"
    static let modal = "TabViewController/CheckInViewController/CheckInModalNavigationController"
    /// The app's journal entries the checks look for.
    static let preservedID = "21ad727465684cd29e7b9bc1c3d456a7"
    static let restoredID = "0c0151517edf47b1a988576b4b5e81e0"
    static let launchedID = "0c3ece682843457296ab0da296a09171"

    /// `busctl call --timeout=10` of METHOD on the app as root; throws unless it exits 0.
    @discardableResult
    static func call(_ method: String, _ signatureAndArguments: String...) throws -> String {
        try Command.expect(0, ["busctl", "call", "--timeout=10"] + bus + [method] + signatureAndArguments).line
    }

    /// Whether the running instance of the unit answers Ready() with (true, its InvocationID), and what
    /// was seen.
    static func ready() throws -> (done: Bool, seen: String) {
        let state = try Units.property(unit, "ActiveState")
        guard state == "active" else { return (false, "\(unit) is \(state)") }
        let invocation = try Units.property(unit, "InvocationID")
        let answer = try Command.run(["busctl", "call", "--timeout=10"] + bus + ["Ready"])
        guard answer.status == 0 else { return (false, "Ready() failed: \(answer.output)") }
        return (answer.line == "(bs) true \"\(invocation)\"",
                "Ready() of \(unit) (InvocationID \(invocation)) answered: \(answer.line)")
    }

    static func waitReady(timeout: Duration = .seconds(60)) throws {
        try waitUntil("\(unit) to answer Ready() with (true, its InvocationID)", timeout: timeout) { try ready() }
    }

    static func invocation() throws -> String { try Units.property(unit, "InvocationID") }

    /// A value of the app's State() JSON at `path` (keys), printed as `jq -r` prints it.
    static func state(_ path: String...) throws -> String {
        let said = try Command.expect(0, ["busctl", "--json=short", "call", "--timeout=10"] + bus + ["State"]).stdout
        let reply = try JSONSerialization.jsonObject(with: Data(said.utf8)) as? [String: Any]
        guard let text = (reply?["data"] as? [Any])?.first as? String else {
            throw CheckFailure("State() of \(unit) answered no JSON string: \(said)")
        }
        return FaultJSON.raw(FaultJSON.value(try FaultJSON.parse(text), path))
    }

    /// Force quit (discards every saved copy), start again, wait until ready.
    static func restartFresh() throws {
        try waitReady()
        try call("Quit", "b", "true")
        try waitUntil("\(unit) to be inactive after Quit(true)") {
            let state = try Units.property(unit, "ActiveState")
            return (state == "inactive", "\(unit) is \(state)")
        }
        try Command.expect(0, ["systemctl", "start", unit])
        try waitReady()
    }

    /// A fresh start of the app (drops its fd store), ready again.
    static func restart() throws {
        try Command.expect(0, ["systemctl", "restart", unit])
        try waitReady()
    }

    /// Shows the check-in modal with NOTE typed into it.
    static func openModal(_ note: String) throws {
        try call("Tap", "s", "tab:check-in")
        try call("Tap", "s", "check-in")
        try call("Type", "ss", "party-size", "3")
        try call("Type", "ss", "note", note)
        try FaultCheck.same(note, try state("modal", "note"), "note typed into the modal")
    }

    /// Kills the main process with SIGNAL, waits for systemd's restart and the new instance's READY;
    /// returns the old and the new InvocationID.
    @discardableResult
    static func killAndWait(_ signal: String) throws -> (old: String, new: String) {
        let restarts = try Units.restarts(unit)
        let old = try invocation()
        try Command.expect(0, ["systemctl", "kill", "--signal=\(signal)", unit])
        try waitUntil("\(unit) NRestarts above \(restarts) after SIG\(signal)") {
            let now = try Units.restarts(unit)
            return (now > restarts, "\(unit) NRestarts=\(now)")
        }
        try waitReady()
        let new = try invocation()
        guard new != old else { throw CheckFailure("InvocationID did not change after SIG\(signal): \(new)") }
        return (old, new)
    }

    /// The running instance restored the modal with NOTE.
    static func expectRestored(_ note: String) throws {
        try FaultCheck.same("restored", try state("launch", "outcome"), "launch.outcome")
        try FaultCheck.same(note, try state("modal", "note"), "modal.note after the relaunch")
        try FaultCheck.same("3", try state("modal", "partySize"), "modal.partySize after the relaunch")
        try FaultCheck.same(modal, try state("presented"), "presented")
        try FaultCheck.same("appDelegate", try state("restoredVia", modal), "restoredVia of the modal's navigation controller")
        try FaultCheck.same("active", try state("lifecycle"), "lifecycle after the relaunch")
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
        for (id, name) in [(restoredID, "restoration finished"), (launchedID, "app launched")] {
            let entries = try Journal.entries(["_SYSTEMD_INVOCATION_ID": invocation, "MESSAGE_ID": id], timeout: .seconds(60))
            try FaultCheck.same(copy, entries.map { $0["ARCHIVE_SOURCE"] ?? "null" }.joined(separator: "\n"), "ARCHIVE_SOURCE of \(name)")
        }
    }

    /// With the modal open holding NOTE: to the background (preserved when the call returns), SIGKILL,
    /// the relaunch, the modal back; then the killed instance's `state preserved` must say
    /// ARCHIVE_COPIES=COPIES. Returns the old and the new InvocationID.
    @discardableResult
    static func backgroundThenKill(_ note: String, copies: String) throws -> (old: String, new: String) {
        try call("Background")
        let instances = try killAndWait("KILL")
        try expectRestored(note)
        try waitForEntry(instances.old, preservedID, "the killed instance's 'state preserved' with ARCHIVE_COPIES=\(copies)",
                         field: "ARCHIVE_COPIES") { $0["ARCHIVE_COPIES"] == copies }
        return instances
    }

    /// The camera the running app says it has (`relaunchctl app state --json`, .camera).
    static func camera() throws -> String {
        let said = try Command.run(["relaunchctl", "app", "state", "--json"])
        guard said.status == 0 else { return said.output }
        return FaultJSON.raw(FaultJSON.value(try? FaultJSON.parse(said.stdout), ["camera"]))
    }

    /// The running app comes to say camera STATE (it learns without a kill, from Changed or its first Get).
    static func waitForCamera(_ state: String) throws {
        try waitUntil("the app to say camera \(state)") {
            let seen = try camera()
            return (seen == state, "the app says camera \(seen)")
        }
    }
}

/// Assertions that end the check at once, as the bash checks' assert_* did, so a step after a failed
/// one never runs on a broken state.
enum FaultCheck {
    /// Throws "WHAT: expected 'X', got 'Y'" unless they are equal.
    static func same(_ expected: String, _ actual: String, _ what: String) throws {
        guard expected == actual else { throw CheckFailure("\(what): expected '\(expected)', got '\(actual)'") }
    }

    /// Throws "WHAT does not contain 'NEEDLE'; it was: TEXT" unless it does.
    static func contains(_ text: String, _ needle: String, _ what: String) throws {
        guard text.contains(needle) else { throw CheckFailure("\(what) does not contain '\(needle)'; it was: \(text)") }
    }

    /// Runs an undo step of a check's cleanup (in a `defer`, which cannot throw): a failure is printed,
    /// not lost, and the next undo step still runs.
    static func undo(_ what: String, _ step: () throws -> Void) {
        do { try step() } catch { print("warning: undoing \(what) failed: \(error)") }
    }
}

/// JSON as `jq -r` reads it.
enum FaultJSON {
    static func parse(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    /// The value at `path` (object keys), or nil.
    static func value(_ json: Any?, _ path: [String]) -> Any? {
        path.reduce(json) { ($0 as? [String: Any])?[$1] }
    }

    /// What `jq -r` prints for a value: a string bare, a number as written, null as null, the rest as JSON.
    static func raw(_ value: Any?) -> String {
        switch value {
        case let text as String: text
        case let number as NSNumber: number.stringValue
        case nil, is NSNull: "null"
        case let other?:
            (try? JSONSerialization.data(withJSONObject: other, options: [.sortedKeys]))
                .map { String(decoding: $0, as: UTF8.self) } ?? "\(other)"
        }
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
