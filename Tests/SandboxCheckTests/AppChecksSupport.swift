import Foundation
import RelaunchContract
import RelaunchTestSupport
import Systemd

/// checkin-demo driven over its bus as root and read back with busctl and the journal: what the bash
/// checks' demo_* helpers (tests/sandbox/checks/checkin-demo.sh) did, for the suites ported from them.
enum Demo {
    static let unit = Permissiond.unit
    static let archive = "/var/lib/checkin-demo/restoration.archive"
    static let modalNavigation = "TabViewController/CheckInViewController/CheckInModalNavigationController"
    /// The app's "saved state discarded" (REASON= says why).
    static let discardedID = "f90884042ed34e8e85a00a87182d6b03"

    /// Calls the app as root (`busctl call --timeout=10`); throws unless busctl exits 0. Its stdout, trimmed.
    @discardableResult
    static func call(_ method: String, _ signatureAndArguments: String...) throws -> String {
        try Command.expect(0, ["busctl", "call", "--timeout=10"] + Bus.checkIn + [method] + signatureAndArguments).line
    }

    /// Whether the running instance of the unit answers Ready() with (true, its InvocationID), and what
    /// was seen.
    static func ready() throws -> (done: Bool, seen: String) {
        let state = try Units.property(unit, "ActiveState")
        guard state == "active" else { return (false, "\(unit) is \(state)") }
        let invocation = try Units.property(unit, "InvocationID")
        let answer = try Command.run(["busctl", "call", "--timeout=10"] + Bus.checkIn + ["Ready"])
        guard answer.status == 0 else { return (false, "Ready() failed: \(answer.output)") }
        return (answer.line == "(bs) true \"\(invocation)\"",
                "Ready() of \(unit) (InvocationID \(invocation)) answered: \(answer.line)")
    }

    static func waitReady(timeout: Duration = .seconds(60)) throws {
        try waitUntil("\(unit) to answer Ready() with (true, its InvocationID)", timeout: timeout) { try ready() }
    }

    /// The app's state JSON (State()).
    static func state() throws -> JSONValue {
        let reply = try Command.expect(0, ["busctl", "--json=short", "call", "--timeout=10"] + Bus.checkIn + ["State"]).stdout
        guard let text = try JSONDecoder().decode(JSONValue.self, from: Data(reply.utf8)).value(at: "data.0")?.string else {
            throw CheckFailure("State() answered no string: \(reply)")
        }
        return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// The value at `path` of the app's state as `jq -r` prints it: a string bare, an absent key `null`.
    static func state(_ path: String) throws -> String { try state().value(at: path).jqText }

    /// Force quit (discards every saved copy), start again, wait until ready.
    static func restartFresh() throws {
        try waitReady()
        try call("Quit", "b", "true")
        try waitUntil("\(unit) to be inactive after a force quit") {
            let state = try Units.property(unit, "ActiveState")
            return (state == "inactive", "\(unit) is \(state)")
        }
        try Command.expect(0, ["systemctl", "start", unit])
        try waitReady()
    }

    /// Shows the check-in modal with `note` typed into it, party size 3.
    static func openModal(_ note: String) throws {
        try call("Tap", "s", "tab:check-in")
        try call("Tap", "s", "check-in")
        try call("Type", "ss", "party-size", "3")
        try call("Type", "ss", "note", note)
        try Assert.equal(note, try state("modal.note"), "note typed into the modal")
    }

    /// Kills the main process with `signal`, waits for systemd's restart and the new instance's READY.
    /// Returns the old and the new InvocationID.
    @discardableResult
    static func killAndWait(_ signal: String) throws -> (old: String, new: String) {
        let restarts = try Units.restarts(unit)
        let old = try Units.property(unit, "InvocationID")
        try Command.expect(0, ["systemctl", "kill", "--signal=\(signal)", unit])
        try waitUntil("\(unit) NRestarts above \(restarts)") {
            let now = try Units.restarts(unit)
            return (now > restarts, "\(unit) NRestarts=\(now)")
        }
        try waitReady()
        let new = try Units.property(unit, "InvocationID")
        guard new != old else { throw CheckFailure("InvocationID did not change after \(signal)") }
        return (old, new)
    }

    /// The running instance restored the modal with `note`.
    static func assertRestored(_ note: String) throws {
        let state = try state()
        try Assert.equal("restored", state.value(at: "launch.outcome").jqText, "launch.outcome")
        try Assert.equal(note, state.value(at: "modal.note").jqText, "modal.note after the relaunch")
        try Assert.equal("3", state.value(at: "modal.partySize").jqText, "modal.partySize after the relaunch")
        try Assert.equal(modalNavigation, state.value(at: "presented").jqText, "presented")
        try Assert.equal("appDelegate", state.value(at: "restoredVia.\"\(modalNavigation)\"").jqText,
                         "restoredVia of the modal's navigation controller")
        try Assert.equal("active", state.value(at: "lifecycle").jqText, "lifecycle after the relaunch")
    }
}

/// The bash checks' assert_eq and assert_contains: throw a one-line `CheckFailure` on the first
/// mismatch, so a check stops where a later step would only fail for the same cause.
enum Assert {
    static func equal(_ expected: String, _ actual: String, _ what: String = "value") throws {
        guard expected == actual else { throw CheckFailure("\(what): expected '\(expected)', got '\(actual)'") }
    }

    static func contains(_ text: String, _ needle: String, _ what: String = "output") throws {
        guard text.contains(needle) else { throw CheckFailure("\(what) does not contain '\(needle)'; it was: \(text)") }
    }
}

/// A file written as root, its folder made first.
func writeFile(_ path: String, _ text: String) throws {
    try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
}

extension Optional<JSONValue> {
    /// As `jq -r` prints the value: a string without quotes, an absent one as `null`.
    var jqText: String {
        switch self {
        case .none: "null"
        case .some(.string(let text)): text
        case .some(let value): value.description
        }
    }
}

extension JSONValue {
    /// The items of an array, or nil for any other kind of value.
    var elements: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
}
