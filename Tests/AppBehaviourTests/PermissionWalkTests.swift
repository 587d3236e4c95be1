import Foundation
import RelaunchContract
@testable import RelaunchTesting
import Testing

/// The random walk over permissions: for every registered app, random transitions of the
/// permissions it uses among the states of its profile. After each, the app's view equals the
/// store's, and the app was killed exactly when docs/PERMISSIONS.md's table says (the document is
/// the oracle, not the code: RelaunchContractTests checks that the code prints the document, so a
/// rule flipped in the code fails both there and here, against the running permissiond).
///
/// Seeded as the walk of RandomWalkTests (RELAUNCH_WALK_SEED); RELAUNCH_WALK_PERMISSION_STEPS
/// (default 12) steps per app.
@Suite(.serialized, .enabled(if: Sandbox.isInside, Sandbox.reason))
struct PermissionWalkTests {
    static let steps = RandomWalkTests.environment["RELAUNCH_WALK_PERMISSION_STEPS"].flatMap(Int.init) ?? 12

    @Test(arguments: RandomWalkTests.apps.enumerated().map { $0 })
    func randomTransitionsKillExactlyAsTheTableSays(index: Int, appID: String) async throws {
        var random = WalkRandom(seed: RandomWalkTests.seed &* 37 &+ UInt64(index + 1))
        let registration = try #require(AppRegistry.load()[appID])
        var app = try await TestedApp.attach(appID, timeout: .seconds(120))
        let table = try ProfileDocument.load()
        defer { try? DaemonProfile.set(nil) }
        for profile in KillPolicy.allCases {
            try DaemonProfile.set(profile)
            app.profile = profile.rawValue
            // Start from states this profile has (another profile's limited or add-only is not in its table).
            try await app.background()
            try await app.resetPermission()
            try await app.foreground()
            print("permission walk of \(appID) (\(profile)): seed \(RandomWalkTests.seed), \(Self.steps) steps (replay with RELAUNCH_WALK_SEED=\(RandomWalkTests.seed))")
            var trace: [String] = []
            for _ in 1...Self.steps {
                let permission = registration.permissions[Int(random.next() % UInt64(registration.permissions.count))]
                let states = profile.profile.rule(permission).states.map(\.state)
                let state = states[Int(random.next() % UInt64(states.count))]
                let old = try await app.permission(permission).store
                // As a user does: the app goes to the background (Settings), where it preserves its state.
                try await app.background()
                let change = try await app.setPermission(permission, to: state)
                let expected = try #require(
                    table[profile]?[permission]?[old]?[state], "docs/PERMISSIONS.md has no \(profile) \(permission) \(old) -> \(state)")
                trace.append("\(permission) \(old) -> \(state): \(change.wasKilled ? "killed" : "not killed"), table: \(expected)")
                #expect(change.wasKilled == (expected == .kill), "\(appID) \(profile): \(trace.joined(separator: "; "))")
                #expect(change.expected == expected, "\(appID): the profile in the code says \(change.expected), the document \(expected)")
                if change.wasKilled {
                    #expect(change.relaunch?.outcome == .restored, "\(appID): came back \(String(describing: change.relaunch?.outcome))")
                }
                try await expectViewEqualsStore(app, registration.permissions, trace)
                try await app.foreground()
            }
        }
    }

    /// Waits (bounded) until the app's permissions are the store's: a change that does not kill
    /// reaches the app by the Changed signal, just after Set returned.
    private func expectViewEqualsStore(_ app: TestedApp, _ permissions: [Permission], _ trace: [String]) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        var seen: [Permission: PermissionReading] = [:]
        while true {
            for permission in permissions { seen[permission] = try await app.permission(permission) }
            if seen.values.allSatisfy({ $0.app == nil || $0.app == $0.store }) { return }
            if ContinuousClock.now > deadline { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let differ = seen.filter { $0.value.app != $0.value.store }.map { "\($0.key): app \(String(describing: $0.value.app)), store \($0.value.store)" }
        Issue.record("\(app.id): after 10 s the app's view differs from the store's: \(differ); steps: \(trace.joined(separator: "; "))")
    }
}

/// Runs the sandbox's permissiond with a profile (the runtime drop-in the scenarios use), or with
/// its own again (nil), and waits until it is back.
enum DaemonProfile {
    static let dropIn = "/run/systemd/system/permissiond.service.d/50-relaunch-scenario-policy.conf"

    static func set(_ profile: KillPolicy?) throws {
        if let profile {
            try FileManager.default.createDirectory(
                atPath: (dropIn as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try "[Service]\nEnvironment=RELAUNCH_KILL_POLICY=\(profile.rawValue)\n".write(toFile: dropIn, atomically: true, encoding: .utf8)
        } else {
            try? FileManager.default.removeItem(atPath: dropIn)
        }
        for arguments in [["daemon-reload"], ["restart", "permissiond.service"]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/systemctl")
            process.arguments = arguments
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0, "systemctl \(arguments.joined(separator: " ")) failed")
        }
    }
}

/// The walk's oracle reads every transition the code's profiles have (runs outside the sandbox too).
@Suite struct ProfileDocumentTests {
    @Test func theDocumentHasEveryTransitionOfBothProfiles() throws {
        let table = try ProfileDocument.load()
        for profile in KillPolicy.allCases {
            for rule in profile.profile.rules {
                for old in rule.states.map(\.state) {
                    for new in rule.states.map(\.state) {
                        #expect(table[profile]?[rule.permission]?[old]?[new] == profile.effect(of: rule.permission, from: old, to: new),
                                "\(profile) \(rule.permission) \(old) -> \(new)")
                    }
                }
            }
        }
    }
}

/// docs/PERMISSIONS.md's transition matrices, read back: profile → permission → from → to → effect.
enum ProfileDocument {
    typealias Table = [KillPolicy: [Permission: [PermissionState: [PermissionState: TransitionEffect]]]]

    static func load() throws -> Table {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/PERMISSIONS.md"), encoding: .utf8)
        var table: Table = [:]
        var current: (KillPolicy, Permission)?
        var columns: [PermissionState] = []
        for line in text.split(separator: "\n").map(String.init) {
            // "`ios` `photos`: from (row) to (column)"
            if line.hasSuffix(": from (row) to (column)") {
                let names = line.split(separator: "`", omittingEmptySubsequences: false).map(String.init)
                guard names.count >= 4, let profile = KillPolicy(rawValue: names[1]),
                      let permission = Permission(rawValue: names[3]) else { current = nil; continue }
                current = (profile, permission)
                columns = []
                continue
            }
            guard let matrix = current, line.hasPrefix("|") else { continue }
            let (profile, permission) = matrix
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.first == "from \\ to" {
                columns = cells.dropFirst().compactMap(PermissionState.init(rawValue:))
            } else if let from = PermissionState(rawValue: cells[0]) {
                for (to, cell) in zip(columns, cells.dropFirst()) {
                    table[profile, default: [:]][permission, default: [:]][from, default: [:]][to] =
                        TransitionEffect(rawValue: cell) ?? .nothing
                }
            }
        }
        return table
    }
}
