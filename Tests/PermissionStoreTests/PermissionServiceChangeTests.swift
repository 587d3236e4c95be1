import RelaunchContract
import Testing
@testable import PermissionStore

@Suite("PermissionService: committing changes and killing")
struct PermissionServiceChangeTests {
    let app = ServiceHarness.app
    let unit = ServiceHarness.unit

    /// A change from `old` to `new`, and whether each policy kills it — for every permission but
    /// location (`ios`) and for location (`iosLocation`).
    struct Transition: Sendable {
        let old: PermissionState
        let new: PermissionState
        let ios: Bool
        let iosLocation: Bool
        let android: Bool
    }

    static let transitions: [Transition] = [
        Transition(old: .notDetermined, new: .allowed, ios: true, iosLocation: false, android: false),  // grant
        Transition(old: .denied, new: .allowed, ios: true, iosLocation: false, android: false),  // grant
        Transition(old: .notDetermined, new: .denied, ios: true, iosLocation: false, android: false),
        Transition(old: .allowed, new: .denied, ios: true, iosLocation: false, android: true),  // revoke
        Transition(old: .allowed, new: .notDetermined, ios: true, iosLocation: false, android: true),  // revoke
        Transition(old: .denied, new: .notDetermined, ios: true, iosLocation: false, android: false),
    ]

    @Test("the policy table: which Set kills a running app", arguments: KillPolicy.allCases, Permission.allCases)
    func policyTable(policy: KillPolicy, permission: Permission) async throws {
        for transition in Self.transitions {
            let harness = try ServiceHarness(policy: policy)
            try harness.preset(permission, transition.old)
            let outcome = await harness.handle(.set(app: app, permission: permission.rawValue, state: transition.new.rawValue))
            let expected =
                switch policy {
                case .ios: permission == .location ? transition.iosLocation : transition.ios
                case .android: transition.android
                }
            let context: Comment = "\(policy) \(permission) \(transition.old) → \(transition.new)"
            #expect(outcome.reply == .success(.done), context)
            #expect(harness.units.kills == (expected ? [unit] : []), context)
            let change = PermissionChange(
                app: app, permission: permission, old: transition.old, new: transition.new, at: 1_001, callerUID: 0)
            var effects: [PermissionEffect] = [.log(.permissionChanged(change, killed: expected))]
            if expected {
                let kill = KillRecord(
                    app: app, unit: unit, permission: permission, old: transition.old, new: transition.new,
                    invocationID: FakeUnitController.invocationID(1), at: 1_002)
                effects.insert(.killed(kill), at: 0)
                effects.append(.log(.appKilled(kill)))
            }
            effects.append(.emitChanged(ChangedSignal(app: app, permission: permission, old: transition.old, new: transition.new, killed: expected)))
            #expect(outcome.effects == effects, context)
            #expect(try harness.database.get(app: app, permission: permission) == transition.new, context)
            #expect(try harness.database.history(app: app).last?.killed == expected, context)
        }
    }

    @Test("an inactive unit: the change is stored and reported, nothing is killed")
    func inactiveUnit() async throws {
        let harness = try ServiceHarness(units: FakeUnitController(active: []))
        let outcome = await harness.handle(.set(app: app, permission: "camera", state: "allowed"))
        #expect(outcome.reply == .success(.done))
        #expect(harness.units.kills.isEmpty && outcome.kills.isEmpty)
        #expect(outcome.logs.map { $0.fields["KILL"] } == ["false"])
        #expect(outcome.signals.map(\.killed) == [false])
        #expect(try harness.database.get(app: app, permission: .camera) == .allowed)
        #expect(try harness.database.lastKill(app: app) == nil)
    }

    @Test("an app that exits between the check and the kill: the change is stored and answered, no kill recorded")
    func exitedBeforeKill() async throws {
        let harness = try ServiceHarness(units: FakeUnitController(active: [unit], exitsBeforeKill: true))
        let outcome = await harness.handle(.set(app: app, permission: "camera", state: "allowed"))
        #expect(outcome.reply == .success(.done))
        #expect(outcome.kills.isEmpty)
        #expect(outcome.logs.map { $0.fields["KILL"] } == ["false"])
        #expect(try harness.database.get(app: app, permission: .camera) == .allowed)
        #expect(try harness.database.lastKill(app: app) == nil)
    }

    @Test("an app without a configured unit is stored and never killed (systemd is not even asked)")
    func unconfiguredApp() async throws {
        let harness = try ServiceHarness(units: FakeUnitController(isActiveFails: true))
        let outcome = await harness.handle(.set(app: "maps", permission: "camera", state: "allowed"))
        #expect(outcome.reply == .success(.done))
        #expect(outcome.signals == [ChangedSignal(app: "maps", permission: .camera, old: .notDetermined, new: .allowed, killed: false)])
        #expect(try harness.database.get(app: "maps", permission: .camera) == .allowed)
    }

    @Test("Reset of several permissions that each kill kills once, and reports each change")
    func resetKillsOnce() async throws {
        let harness = try ServiceHarness()
        for permission in [Permission.camera, .photos, .location] { try harness.preset(permission, .allowed) }
        let outcome = await harness.handle(.reset(app: app, permission: ""))
        #expect(outcome.reply == .success(.done))
        #expect(harness.units.kills == [unit])
        let kill = try #require(outcome.kills.first)
        #expect(outcome.kills.count == 1 && kill.permission == .camera && kill.old == .allowed && kill.new == .notDetermined)
        #expect(outcome.logs.map(\.messageID) == [.permissionChanged, .permissionChanged, .permissionChanged, .appKilled])
        #expect(outcome.logs.prefix(3).map { $0.fields["KILL"] } == ["true", "true", "false"], "location never kills under ios")
        #expect(outcome.signals.map(\.permission) == [.camera, .photos, .location])
        #expect(outcome.signals.map(\.killed) == [true, true, false])
        #expect(try harness.database.list(app: app).values.allSatisfy { $0 == .notDetermined })
        #expect(try harness.database.lastKill(app: app) == kill)
        let resets = try harness.database.history(app: app).suffix(3)
        #expect(resets.map(\.invocationID) == [kill.invocationID, kill.invocationID, nil])
        #expect(resets.map(\.callerUID) == [0, 0, 0])
    }

    @Test("Reset of one permission, and Reset with nothing to reset")
    func resetOneAndNothing() async throws {
        let harness = try ServiceHarness()
        try harness.preset(.microphone, .denied)
        let one = await harness.handle(.reset(app: app, permission: "microphone"))
        #expect(one.reply == .success(.done) && one.kills.count == 1 && one.signals.count == 1)
        let nothing = await harness.handle(.reset(app: app, permission: ""))
        #expect(nothing.reply == .success(.done) && nothing.effects.isEmpty)
        #expect(harness.units.kills == [unit])
    }

    @Test("a Set to the state a permission already has answers OK and does nothing else")
    func sameStateIsNoOp() async throws {
        let harness = try ServiceHarness()
        try harness.preset(.camera, .denied)
        for state in ["denied", "denied"] {
            let outcome = await harness.handle(.set(app: app, permission: "camera", state: state))
            #expect(outcome.reply == .success(.done) && outcome.effects.isEmpty)
        }
        let never = await harness.handle(.set(app: app, permission: "photos", state: "not-determined"))
        #expect(never.reply == .success(.done) && never.effects.isEmpty)
        #expect(harness.units.kills.isEmpty)
        #expect(try harness.database.history(app: app).count == 1, "only the preset")
    }

    @Test("systemd failing: the change stays committed and reported, the reply is Failed saying what to do",
          arguments: [FakeUnitController(active: [ServiceHarness.unit], isActiveFails: true),
                      FakeUnitController(active: [ServiceHarness.unit], killFails: true)])
    func killFails(_ units: FakeUnitController) async throws {
        let harness = try ServiceHarness(units: units)
        let outcome = await harness.handle(.set(app: app, permission: "camera", state: "allowed"))
        let error = try #require(outcome.error)
        #expect(error.dbusName == "org.relaunch.Permissions1.Error.Failed")
        #expect(error.message.contains("camera of checkin-demo is now allowed, but killing checkin-demo.service"))
        #expect(error.message.contains("systemctl restart checkin-demo.service"))
        #expect(outcome.kills.isEmpty && outcome.logs.map { $0.fields["KILL"] } == ["false"])
        #expect(outcome.signals.map(\.killed) == [false])
        #expect(try harness.database.get(app: app, permission: .camera) == .allowed)
        #expect(try harness.database.lastKill(app: app) == nil)
    }

    @Test("journal entries carry exactly the contract's fields, MESSAGE_ID and MESSAGE")
    func journalFields() async throws {
        let harness = try ServiceHarness()
        let outcome = await harness.handle(.set(app: app, permission: "camera", state: "denied"), as: 0)
        let logs = outcome.logs
        try #require(logs.count == 2)
        #expect(logs[0].allFields == [
            "MESSAGE_ID": "9b3f5994e16840eb93c15d94fb1674bd",
            "MESSAGE": "checkin-demo: camera changed from not-determined to denied by uid 0; the app was killed to apply it",
            "APP_ID": "checkin-demo", "PERMISSION": "camera", "OLD_STATE": "not-determined", "NEW_STATE": "denied",
            "CALLER_UID": "0", "KILL": "true", "CHANGED_USEC": "1001",
        ])
        #expect(logs[1].allFields == [
            "MESSAGE_ID": "cec8a90c402d4067a74cf3669006da0e",
            "MESSAGE": "checkin-demo: killed checkin-demo.service with SIGKILL because camera changed from not-determined to denied",
            "APP_ID": "checkin-demo", "UNIT": "checkin-demo.service", "PERMISSION": "camera", "SIGNAL": "KILL",
            "OLD_STATE": "not-determined", "NEW_STATE": "denied",
            "KILLED_INVOCATION_ID": FakeUnitController.invocationID(1), "KILLED_USEC": "1002",
        ])
    }
}
