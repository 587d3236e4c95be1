import Foundation
import RelaunchTestSupport
import Testing

/// Revocation under hostile load (CONTRACT.md "Revocation cannot be starved", docs/SECURITY.md): local
/// users with no rights keep thousands of calls waiting on permissiond and on an app (tests/sandbox/flood,
/// several users, many connections each, and unanswered polkit prompts), and still every revocation by
/// root commits, kills the app and is answered, the app comes back restored, the app's own reads and
/// root's are answered, and a member of relaunch still drives the app. Each check performs the attack.
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct HostileLoadChecks {
    @Test func revocationIsNeverStarved() throws {
        let floods = try Floods()
        defer { floods.stop() }
        try Command.expect(0, ["relaunchctl", "permission", "set", "checkin-demo", "camera", "allowed"])
        try Demo.restartFresh()  // a known start, whatever checks before left on the screen
        try Demo.openModal("flooded")
        try Demo.call("Background")
        try floods.everything()
        let unit = Demo.unit
        var invocations: [String] = []
        var times: [Int] = []
        let clock = ContinuousClock()
        for i in 1...10 {
            for state in ["denied", "allowed"] {
                // --wait: returns once the killed app is back, and says how it came back.
                let invocation = try Units.property(unit, "InvocationID")
                invocations.append(invocation)
                let started = clock.now
                let set = try Command.expect(
                    0, ["relaunchctl", "permission", "set", "checkin-demo", "camera", state, "--wait", "--timeout", "60"], timeout: .seconds(120))
                times.append(Int((clock.now - started).timeInterval * 1000))
                for (phrase, what) in [
                    ("camera: ", ""), ("(app killed; systemd relaunched it)", ": the kill"), ("relaunched: restored", ": how the app came back"),
                ] where !set.output.contains(phrase) {
                    throw CheckFailure("revocation \(i) (\(state))\(what) under the flood: the answer lacks '\(phrase)': \(set)")
                }
                let now = try Units.property(unit, "InvocationID")
                guard now != invocation else {
                    throw CheckFailure("revocation \(i) (\(state)): the app runs in the same invocation (\(invocation)): not relaunched")
                }
                try Demo.call("Background")  // the next change finds it in the background again, as the user left it
            }
        }
        note("each revocation or grant with --wait, ms (set to restored): \(times.map(String.init).joined(separator: " "))")
        // One relaunch per change: 20 invocations, each new. (Not NRestarts: permissiond resets the unit's
        // failure state, and with it that count, once its kills fill half the start limit.)
        invocations.append(try Units.property(unit, "InvocationID"))
        #expect(Set(invocations).count == 21, "the app's invocations: one new per change: expected 21 distinct, got \(Set(invocations).count): \(invocations)")
        let restored = try AttackedApp.state("modal.note")
        #expect(restored == "flooded", "the note typed before the flood, after 20 kills: got '\(restored)'")
        try floods.stopAndCount()
        try floods.pressed("get-a", 100)
        try floods.pressed("get-b", 100)
        try floods.pressed("prompts", 130, .held)
    }

    @Test func readsAreAnswered() throws {
        let floods = try Floods()
        defer { floods.stop() }
        try Demo.waitReady()
        try Command.expect(0, ["relaunchctl", "permission", "set", "checkin-demo", "camera", "denied"])
        try Demo.waitReady()
        try floods.everything()
        // The app's first lookup (who is this caller? its unit?) lands in the flood: it is relaunched now,
        // reads its own permissions as itself at launch, and must see the store's.
        try Command.expect(0, ["systemctl", "restart", Demo.unit])
        try Demo.waitReady()
        try waitUntil("checkin-demo's state to show camera denied") { AttackedApp.stateIs("permissions.camera", "denied") }
        let root = try Command.expect(0, Bus.call(Bus.permissions, "Get", "ss", "checkin-demo", "camera"))
        #expect(root.output.trimmingCharacters(in: .newlines) == "s \"denied\"", "root's Get under the flood: expected 's \"denied\"', got '\(root.output)'")
        // A member of relaunch reads through polkit: its checks have places of their own.
        let member = try Stranger.asMember(0, ["relaunchctl", "permission", "get", "checkin-demo", "camera"])
        #expect(member.output.trimmingCharacters(in: .newlines) == "denied", "a member's Get under the flood: expected 'denied', got '\(member.output)'")
        // The flooder itself, on one more connection, gets nothing: it waits its turn behind its own flood
        // (on a slow machine longer than it waits for a reply) and is then refused.
        let own = try Command.expect(
            1, ["dbus-send", "--system", "--print-reply", "--reply-timeout=5000", "--dest=org.relaunch.Permissions1", "/org/relaunch/Permissions1",
                "org.relaunch.Permissions1.Get", "string:checkin-demo", "string:camera"], as: RunAs(Floods.users[0]))
        #expect(own.output.contains("org.freedesktop.DBus.Error.AccessDenied") || own.output.contains("org.freedesktop.DBus.Error.NoReply"),
                "the flooder's own Get: expected AccessDenied or no reply within 5 s, got: \(own.output)")
        try floods.stopAndCount()
        try floods.pressed("get-a", 100)
        // The second user's calls wait behind its own unanswered prompts: held, not refused in a spin.
        try floods.pressed("get-b", 100, .heldOrPressed)
    }

    @Test func appDriveSurvivesStrangers() throws {
        let floods = try Floods()
        defer { floods.stop() }
        try Demo.waitReady()
        try polkitAnswers()
        // Strangers ask the app itself for its state (each call needs polkit's word), hundreds at once.
        try floods.start("app-a", Floods.users[0], "--connections", "100", "--pending", "16", "app-state", AttackedApp.bus)
        try floods.start("app-b", Floods.users[1], "--connections", "100", "--pending", "16", "app-state", AttackedApp.bus)
        for i in 1...3 {
            let state = try Stranger.asMember(0, ["relaunchctl", "app", "--app", "checkin-demo", "state", "--json"])
            #expect(state.output.contains("\"lifecycle\""), "a member's app state under the flood (\(i)): \(state)")
        }
        try Stranger.asMember(0, ["relaunchctl", "app", "--app", "checkin-demo", "screen"])
        try Command.expect(0, ["relaunchctl", "app", "--app", "checkin-demo", "state", "--json"])
        try Demo.waitReady()
        try floods.stopAndCount()
        try floods.pressed("app-a", 100)
        try floods.pressed("app-b", 100)
    }
}

/// tests/sandbox/flood as users with no rights, each flood a transient service of its own: it stops by
/// itself after 300 s, and `stop()` (in a `defer`) ends every one whatever the check did.
final class Floods {
    /// Two users with no rights, made in the sandbox's /etc (an overlay on a scratch tmpfs).
    static let users = ["relaunch-flood-a", "relaunch-flood-b"]
    static let program = "\(repositoryRoot)/tests/sandbox/flood"

    /// How a flood pressed: sent again and again; every call held (prompts nobody answers); or either.
    enum Pressure { case pressed, held, heldOrPressed }

    /// Where the floods write their counts, as their own users.
    private let folder: TemporaryDirectory
    private var running: [String: BackgroundService] = [:]
    private var stats: [String: String] = [:]

    init() throws {
        for user in Self.users { try Stranger.ensureUser(user) }
        folder = try TemporaryDirectory(prefix: "relaunch-floods")
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
    }

    /// Starts a flood NAME as USER (no groups) and returns once every one of its connections has its
    /// calls on their way.
    func start(_ name: String, _ user: String, _ arguments: String...) throws {
        let ready = folder.file("\(name).ready").path
        let flood = try BackgroundService(
            "relaunch-check-flood-\(name)",
            [Self.program, "--seconds", "300", "--ready", ready, "--stats", folder.file("\(name).stats").path] + arguments,
            as: RunAs(user), output: folder.file("\(name).log").path, bound: .seconds(330))
        running[name] = flood
        try waitUntil("flood \(name) on its way", timeout: .seconds(120)) {
            let said = (try? String(contentsOfFile: ready, encoding: .utf8)) ?? ""
            let log = flood.said.split(separator: "\n").suffix(3).joined(separator: "\n")
            return (!said.isEmpty, "flood \(name) not on its way yet; it said: \(log)")
        }
    }

    /// 130 unanswered authentication prompts (a polkit agent of the flood's own that never answers;
    /// first, while polkit still has time to register it), then 2 users x 100 connections x 16 calls
    /// waiting on permissiond's Get.
    func everything() throws {
        try polkitAnswers()
        try start("prompts", Self.users[1], "--agent", "--connections", "130", "--pending", "1", "permissions-get", "checkin-demo", "camera")
        try start("get-a", Self.users[0], "--connections", "100", "--pending", "16", "permissions-get", "checkin-demo", "camera")
        try start("get-b", Self.users[1], "--connections", "100", "--pending", "16", "permissions-get", "checkin-demo", "camera")
    }

    /// Ends every flood (SIGTERM: each writes its counts) and reads their counts.
    func stopAndCount() throws {
        stop()
        for name in running.keys.sorted() {
            let file = folder.file("\(name).stats").path
            try waitUntil("flood \(name)'s counts") {
                let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
                return (!text.isEmpty, "\(file) is empty")
            }
            stats[name] = try String(contentsOfFile: file, encoding: .utf8)
        }
    }

    /// Ends every flood still running.
    func stop() {
        for flood in running.values { flood.stop() }
    }

    /// The flood really pressed: it had CONNECTIONS connections and was answered (refused) more often
    /// than it had calls waiting at once, i.e. it sent again and again; `.held`: its calls (prompts nobody
    /// answers) were still waiting when it stopped, none answered.
    func pressed(_ name: String, _ connections: Int, _ pressure: Pressure = .pressed) throws {
        guard let text = stats[name] else { throw CheckFailure("flood \(name) left no counts") }
        note("flood \(name): \(text.split(separator: "\n").joined(separator: " "))")
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count == 2, let value = Int(words[1]) { counts[String(words[0])] = value }
        }
        guard counts["connections"] == connections else {
            throw CheckFailure("flood \(name)'s connections: expected \(connections); its counts: \(text)")
        }
        let sent = counts["sent"] ?? 0
        if pressure == .heldOrPressed, !text.contains("answered"), sent == connections * 16 {
            note("flood \(name): every call still waiting when it stopped")
        } else if pressure == .held {
            guard sent == connections else {
                throw CheckFailure("flood \(name)'s calls (each held by its unanswered prompt): expected \(connections) sent, got \(sent)")
            }
            guard !text.contains("answered") else {
                throw CheckFailure("flood \(name) was answered (a prompt nobody answers grants nothing): \(text)")
            }
        } else if sent <= connections {
            throw CheckFailure("flood \(name) sent \(sent) calls on \(connections) connections: it never pressed")
        }
    }
}
