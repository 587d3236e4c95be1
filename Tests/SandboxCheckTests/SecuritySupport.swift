import Foundation
import RelaunchTestSupport

/// The repository root, as the sandbox sees it (the same path as on the host).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// Any app's state JSON, read over its App1 as root (checkin-demo's by default); the driving itself is
/// AppChecksSupport's `Demo`.
enum AttackedApp {
    static let bus = "org.relaunch.CheckInDemo1"

    /// The value at the dotted PATH of the state JSON (State()) of the app on BUSNAME, as `jq -r`
    /// prints it (`null` when absent).
    static func state(_ path: String, bus: String = bus) throws -> String {
        let said = try Command.expect(0, ["busctl", "--json=short", "call", "--timeout=10", bus, "/org/relaunch/App1", "org.relaunch.App1", "State"])
        guard let reply = try JSONSerialization.jsonObject(with: Data(said.stdout.utf8)) as? [String: Any],
            let text = (reply["data"] as? [Any])?.first as? String
        else { throw CheckFailure("State() of \(bus) did not answer a string: \(said.stdout)") }
        return JSON.text(at: path, in: try JSON.parse(text))
    }

    /// True once the state of the app on BUSNAME shows VALUE at PATH, and what it showed.
    /// (A State() that fails, while the app restarts, is a state not reached yet.)
    static func stateIs(_ path: String, _ value: String, bus: String = bus) -> (done: Bool, seen: String) {
        do {
            let now = try state(path, bus: bus)
            return (now == value, "\(bus)'s \(path) is \(now)")
        } catch {
            return (false, "\(error)")
        }
    }
}

/// Reading values out of JSON as `jq -r` prints them.
enum JSON {
    /// The value at the dotted PATH (`summary.kills`); strings as they are, `null` when absent.
    static func text(at path: String, in object: Any) -> String {
        text(value(object, path.split(separator: ".").map(String.init)))
    }

    static func text(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: "null"
        case let string as String: string
        case let int as Int: String(int)
        case let double as Double: String(double)
        case let number as NSNumber: number.stringValue
        case let other?:
            (try? JSONSerialization.data(withJSONObject: other, options: [.sortedKeys, .fragmentsAllowed]))
                .map { String(decoding: $0, as: UTF8.self) } ?? "\(other)"
        }
    }

    /// Parses `text` as JSON of any kind (an object, an array, a bare value).
    static func parse(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    /// The value at `path` (object keys), or nil.
    static func value(_ json: Any?, _ path: [String]) -> Any? {
        path.reduce(json) { ($0 as? [String: Any])?[$1] }
    }

    /// Parses a command's stdout as a JSON object.
    static func object(_ result: CommandResult) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw CheckFailure("expected a JSON object from \(result)")
        }
        return object
    }
}

/// Local users with no rights, and a member of the group relaunch, made in the sandbox's /etc (an
/// overlay on a scratch tmpfs).
enum Stranger {
    /// A member of the group relaunch (polkit's org.relaunch.permissions.read and app.drive).
    static let member = "relaunch-tester"

    /// Adds the system user USER (in GROUPS) to the sandbox's /etc unless it exists.
    static func ensureUser(_ user: String, groups: String? = nil) throws {
        guard try Command.run(["id", "-u", user]).status != 0 else { return }
        let added = try Command.run(["useradd", "--system", "--no-create-home"] + (groups.map { ["--groups", $0] } ?? []) + [user])
        guard added.status == 0 else { throw CheckFailure("could not add \(user) to the sandbox's /etc: \(added)") }
    }

    /// Runs `argv` as the member of relaunch, with its groups (`setpriv --init-groups`); throws unless
    /// it exits with `status`.
    @discardableResult
    static func asMember(_ status: Int32, _ argv: [String]) throws -> CommandResult {
        try ensureUser(member, groups: "relaunch")
        return try Command.expect(status, ["setpriv", "--reuid=\(member)", "--regid=\(member)", "--init-groups"] + argv)
    }

    /// The output is permissiond's or the app's refusal (not the bus policy's), naming the polkit
    /// action that would allow it.
    static func assertDenied(_ result: CommandResult, _ what: String, action: String) throws {
        guard result.output.contains("org.freedesktop.DBus.Error.AccessDenied") else {
            throw CheckFailure("\(what): expected org.freedesktop.DBus.Error.AccessDenied; it said: \(result.output)")
        }
        guard result.output.contains(action) else {
            throw CheckFailure("\(what) (the action that allows it): expected it to name \(action); it said: \(result.output)")
        }
    }
}

/// polkit is up: a refusal must come from a decision, not from polkit being down. polkit is started
/// by D-Bus activation, as a first client starts it (a suite run alone may be its first client).
func polkitAnswers(timeout: Duration = .seconds(120)) throws {
    _ = try Command.run(["busctl", "call", "org.freedesktop.PolicyKit1", "/org/freedesktop/PolicyKit1/Authority",
                         "org.freedesktop.DBus.Peer", "Ping"], timeout: timeout)
    try waitUntil("polkit to answer", timeout: timeout) {
        let down = try polkitIsDown()
        return (down == nil, down ?? "")
    }
}

/// Runs `argv` as a transient service with the sandboxing of the unit file (its user, capabilities,
/// namespaces, filters): `systemd-run --pipe --wait`, its output piped back. The settings are the
/// file's [Service] settings but those that say what to run and how to supervise it.
func runLike(_ unitFile: String, _ argv: [String]) throws -> CommandResult {
    let text = try String(contentsOfFile: unitFile, encoding: .utf8)
    let supervision: Set<String> = [
        "Type", "BusName", "NotifyAccess", "Restart", "RestartSec", "WatchdogSec", "FileDescriptorStoreMax", "Environment",
    ]
    var inService = false
    var properties: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("[") { inService = line.hasPrefix("[Service]"); continue }
        guard inService, let equals = line.firstIndex(of: "="), line.first?.isUppercase == true else { continue }
        let key = String(line[..<equals])
        guard key.allSatisfy({ $0.isASCII && $0.isLetter }), !supervision.contains(key),
            !["Exec", "Timeout", "StateDirectory", "ConfigurationDirectory"].contains(where: key.hasPrefix)
        else { continue }
        properties += ["-p", String(line)]
    }
    return try Command.run(["systemd-run", "--pipe", "--wait", "--quiet", "-p", "DefaultDependencies=no"] + properties + argv)
}

/// Runs `argv` as `runLike` does; returns its result when it exited with `status`, and throws a
/// `CheckFailure` naming the command (not the sandboxing settings), the unit file, what it exited with
/// and what it said otherwise.
@discardableResult
func expectLike(_ status: Int32, _ unitFile: String, _ argv: [String]) throws -> CommandResult {
    let result = try runLike(unitFile, argv)
    guard result.status == status else {
        let said = result.output.isEmpty ? "(nothing)" : result.output
        throw CheckFailure(
            "'\(argv.joined(separator: " "))' with the sandboxing of \(URL(fileURLWithPath: unitFile).lastPathComponent) "
                + "exited \(result.status), expected \(status); output: \(said)")
    }
    return result
}

/// The unit files of the repository, as `runLike` takes them.
enum UnitFile {
    static let permissiond = "\(repositoryRoot)/systemd/permissiond.service"
    static let checkInDemo = "\(repositoryRoot)/systemd/checkin-demo.service"
}

/// A line the runner's log shows when the check passes too (scores, timings), as bash's `note`.
func note(_ text: String) { print("note: \(text)") }
