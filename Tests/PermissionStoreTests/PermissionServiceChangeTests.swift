import RelaunchContract
import Synchronization
import Testing
@testable import PermissionStore

@Suite("PermissionService: committing changes and killing")
struct PermissionServiceChangeTests {
    let app = ServiceHarness.app
    let unit = ServiceHarness.unit

    /// A change from `old` to `new`, and whether each policy kills it — for every permission but
    /// location and notifications (`ios`) and for those two (`iosLocation`).
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
                case .ios: permission == .location || permission == .notifications ? transition.iosLocation : transition.ios
                case .android: transition.android
                }
            let context: Comment = "\(policy) \(permission) \(transition.old) → \(transition.new)"
            #expect(outcome.reply == .success(.done), context)
            #expect(harness.units.kills == (expected ? [unit] : []), context)
            let change = StoredPermissionChange(
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
            #expect(harness.database.get(app: app, permission: permission) == transition.new, context)
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
        #expect(harness.database.get(app: app, permission: .camera) == .allowed)
        #expect(harness.database.lastKill(app: app) == nil)
    }

    @Test("an app that exits between the check and the kill: the change is stored and answered, no kill recorded")
    func exitedBeforeKill() async throws {
        let harness = try ServiceHarness(units: FakeUnitController(active: [unit], exitsBeforeKill: true))
        let outcome = await harness.handle(.set(app: app, permission: "camera", state: "allowed"))
        #expect(outcome.reply == .success(.done))
        #expect(outcome.kills.isEmpty)
        #expect(outcome.logs.map { $0.fields["KILL"] } == ["false"])
        #expect(harness.database.get(app: app, permission: .camera) == .allowed)
        #expect(harness.database.lastKill(app: app) == nil)
    }

    @Test("an app whose own KillPolicy is android is not killed by a grant, while the daemon's ios policy would")
    func perAppPolicy() async throws {
        let units = FakeUnitController(active: [ServiceHarness.unit, "maps.service"])
        let harness = try ServiceHarness(units: units)
        let grant = await harness.handle(.set(app: "maps", permission: "camera", state: "allowed"))
        #expect(grant.reply == .success(.done) && grant.kills.isEmpty)
        #expect(grant.signals == [ChangedSignal(app: "maps", permission: .camera, old: .notDetermined, new: .allowed, killed: false)])
        let revoke = await harness.handle(.set(app: "maps", permission: "camera", state: "denied"))
        #expect(revoke.kills.map(\.unit) == ["maps.service"])
        #expect(harness.database.get(app: "maps", permission: .camera) == .denied)
    }

    @Test("a reload takes new registrations at once and keeps what is stored")
    func reload() async throws {
        let harness = try ServiceHarness()
        _ = await harness.handle(.set(app: "maps", permission: "photos", state: "allowed"))
        var configuration = harness.service.configuration
        configuration.registry = AppRegistry([AppRegistration(app: "maps", unit: "maps.service", permissions: [.photos])])
        harness.service.reload(configuration)
        #expect(harness.service.configuration.apps == ["maps"])
        #expect(await harness.handle(.get(app: "maps", permission: "photos")).reply == .success(.state(.allowed)))
        #expect(await harness.handle(.get(app: "checkin-demo", permission: "camera")).error?.dbusName
            == "org.freedesktop.DBus.Error.InvalidArgs")
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
        #expect(harness.database.list(app: app).values.allSatisfy { $0 == .notDetermined })
        #expect(harness.database.lastKill(app: app) == kill)
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

    @Test("systemd cannot say which instance runs: nothing is stored, and the reply says so")
    func systemdUnreachable() async throws {
        let harness = try ServiceHarness(units: FakeUnitController(active: [ServiceHarness.unit], isActiveFails: true))
        let outcome = await harness.handle(.set(app: app, permission: "camera", state: "allowed"))
        let error = try #require(outcome.error)
        #expect(error.dbusName == "org.relaunch.Permissions1.Error.Failed")
        #expect(error.message.contains("nothing was changed"))
        #expect(outcome.effects.isEmpty)
        #expect(harness.database.get(app: app, permission: .camera) == .notDetermined)
        #expect(try harness.database.history(app: app).isEmpty)
        #expect(try harness.database.pendingKills().isEmpty)
    }

    @Test("a kill that keeps failing: the change is stored with its pending kill, the reply is Failed saying what to do")
    func killFails() async throws {
        let harness = try ServiceHarness(units: FakeUnitController(active: [ServiceHarness.unit], killFails: true))
        let outcome = await harness.handle(.set(app: app, permission: "camera", state: "allowed"))
        let error = try #require(outcome.error)
        #expect(error.dbusName == "org.relaunch.Permissions1.Error.Failed")
        #expect(error.message.contains("camera of checkin-demo is now allowed (stored), but killing checkin-demo.service"))
        #expect(error.message.contains("keeps trying"))
        #expect(error.message.contains("systemctl restart checkin-demo.service"))
        #expect(outcome.kills.isEmpty && outcome.logs.map { $0.fields["KILL"] } == ["false"])
        #expect(outcome.signals.map(\.killed) == [false])
        #expect(harness.database.get(app: app, permission: .camera) == .allowed)
        #expect(harness.database.lastKill(app: app) == nil)
        let pending = try harness.database.pendingKills()
        #expect(pending.count == 1)
        #expect(pending.first?.invocationID == FakeUnitController.invocationID(1))
        #expect(pending.first?.announced == true && pending.first?.attempts == 1)
    }

    @Test("a kill that fails a few times is retried in line and the Set succeeds")
    func killRetriedInLine() async throws {
        let units = FakeUnitController(active: [ServiceHarness.unit])
        units.state.withLock { $0.killFailures = 2 }
        let harness = try ServiceHarness(units: units)
        let outcome = await harness.handle(.set(app: app, permission: "camera", state: "allowed"))
        #expect(outcome.reply == .success(.done))
        #expect(units.killedInstances == [FakeUnitController.invocationID(1)])
        #expect(try harness.database.pendingKills().isEmpty)
    }

    @Test("the outbox: a kill that failed is carried out later, once, and only on the instance that owed it")
    func outboxRedelivers() async throws {
        let units = FakeUnitController(active: [ServiceHarness.unit], killFails: true)
        let harness = try ServiceHarness(units: units)
        _ = await harness.handle(.set(app: app, permission: "camera", state: "allowed"))
        #expect(harness.database.lastKill(app: app) == nil, "a kill that failed is not the last kill")
        units.state.withLock { $0.killFailures = 0 }
        let (effects, remaining) = await harness.service.redeliverPendingKills()
        #expect(remaining == 0)
        #expect(units.killedInstances == [FakeUnitController.invocationID(1)])
        // Announced already: only the kill is logged now.
        let logs = effects.compactMap { if case .log(let entry) = $0 { entry.messageID } else { nil } }
        #expect(logs == [.appKilled])
        #expect(harness.database.lastKill(app: app)?.invocationID == FakeUnitController.invocationID(1))
        #expect(try harness.database.history(app: app).last?.killed == true)
        let again = await harness.service.redeliverPendingKills()
        #expect(again.remaining == 0 && again.effects.isEmpty)
        #expect(units.killedInstances.count == 1, "never killed twice")
    }

    @Test("a daemon that died between commit and kill: on start the kill is carried out and the change announced")
    func outboxAfterCrash() async throws {
        let harness = try ServiceHarness()
        let instance = try #require(harness.units.instance(of: unit))
        // What a Set had committed when the daemon was SIGKILLed before the kill.
        _ = try harness.database.set(
            app: app, permission: .camera, to: .denied, callerUID: 0, at: 5,
            owing: KillOwed(unit: unit, invocationID: instance) { _ in true })
        let (effects, remaining) = await harness.service.redeliverPendingKills()
        #expect(remaining == 0)
        #expect(harness.units.killedInstances == [instance])
        let logs = effects.compactMap { if case .log(let entry) = $0 { entry } else { nil } }
        #expect(logs.map(\.messageID) == [.permissionChanged, .appKilled])
        #expect(logs.first?.fields["KILL"] == "true" && logs.first?.fields["CHANGED_USEC"] == "5")
        let signals = effects.compactMap { if case .emitChanged(let signal) = $0 { signal } else { nil } }
        #expect(signals.map(\.killed) == [true])
    }

    @Test("an instance that was replaced before the outbox ran is never killed for the older change")
    func outboxSparesNewerInstance() async throws {
        let harness = try ServiceHarness()
        let old = try #require(harness.units.instance(of: unit))
        _ = try harness.database.set(
            app: app, permission: .camera, to: .denied, callerUID: 0, at: 5,
            owing: KillOwed(unit: unit, invocationID: old) { _ in true })
        let newer = harness.units.start(unit)  // systemd relaunched the app meanwhile: it read the new state
        let (effects, remaining) = await harness.service.redeliverPendingKills()
        #expect(remaining == 0)
        #expect(harness.units.killedInstances.isEmpty)
        #expect(harness.units.instance(of: unit) == newer)
        let logs = effects.compactMap { if case .log(let entry) = $0 { entry } else { nil } }
        #expect(logs.map(\.messageID) == [.permissionChanged])
        #expect(logs.first?.fields["KILL"] == "false")
        #expect(try harness.database.pendingKills().isEmpty)
    }

    @Test("a daemon that died between commit and kill, and cannot kill now: the change is announced once, the kill stays pending")
    func outboxAnnouncesOnceWhileKillFails() async throws {
        let units = FakeUnitController(active: [ServiceHarness.unit], killFails: true)
        let harness = try ServiceHarness(units: units)
        let instance = try #require(units.instance(of: unit))
        _ = try harness.database.set(
            app: app, permission: .camera, to: .denied, callerUID: 0, at: 5,
            owing: KillOwed(unit: unit, invocationID: instance) { _ in true })
        let first = await harness.service.redeliverPendingKills()
        #expect(first.remaining == 1)
        let logs = first.effects.compactMap { if case .log(let entry) = $0 { entry } else { nil } }
        #expect(logs.map(\.messageID) == [.permissionChanged])
        #expect(logs.first?.fields["KILL"] == "false")
        let signals = first.effects.compactMap { if case .emitChanged(let signal) = $0 { signal } else { nil } }
        #expect(signals.map(\.new) == [.denied])
        #expect(try harness.database.pendingKills().map(\.attempts) == [1])
        // The next attempt fails too: nothing is announced again, and the kill is still owed.
        let second = await harness.service.redeliverPendingKills()
        #expect(second.remaining == 1)
        #expect(second.effects.isEmpty, "announced twice: \(second.effects)")
        #expect(units.killedInstances.isEmpty)
    }

    @Test("a kill that failed in line is tried again after its delay, and only a delay above zero is waited")
    func inlineRetryWaits() async throws {
        let units = FakeUnitController(active: [ServiceHarness.unit])
        units.state.withLock { $0.killFailures = 2 }
        let harness = try ServiceHarness(units: units)
        let waits = Mutex<[Duration]>([])
        let service = PermissionService(
            database: harness.database, configuration: harness.service.configuration, units: units,
            inlineRetryDelays: [.zero, .milliseconds(50), .milliseconds(200), .milliseconds(500)],
            sleep: { delay in waits.withLock { $0.append(delay) } })
        let outcome = await service.perform(.set(app: app, permission: "camera", state: "denied"), caller: Caller(uid: 0))
        #expect(outcome.error == nil && outcome.kills.count == 1)
        #expect(waits.withLock { $0 } == [.milliseconds(50), .milliseconds(200)], "two failed attempts, then the kill")
    }

    @Test("a kill that can never be delivered is given up after the maximum attempts, saying what to do")
    func outboxGivesUp() async throws {
        let harness = try ServiceHarness(units: FakeUnitController(active: [ServiceHarness.unit], killFails: true))
        _ = await harness.handle(.set(app: app, permission: "camera", state: "allowed"))  // attempt 1
        _ = await harness.service.redeliverPendingKills()  // attempt 2
        let (effects, remaining) = await harness.service.redeliverPendingKills()  // attempt 3: the last
        #expect(remaining == 0)
        let problems = effects.compactMap { if case .problem(let text) = $0 { text } else { nil } }
        #expect(problems.count == 1)
        #expect(problems.first?.contains("gave up killing checkin-demo.service") == true)
        #expect(problems.first?.contains("systemctl restart checkin-demo.service") == true)
        #expect(try harness.database.pendingKills().isEmpty)
    }

    @Test("reads answer what was committed, from memory, also after the store is opened again")
    func readsFollowCommits() async throws {
        let harness = try ServiceHarness()
        _ = await harness.handle(.set(app: app, permission: "camera", state: "denied"))
        #expect(harness.service.read(.get(app: app, permission: "camera")) == .success(.state(.denied)))
        let reopened = try PermissionDatabase(path: harness.database.path)
        #expect(reopened.get(app: app, permission: .camera) == .denied)
        #expect(reopened.lastKill(app: app)?.invocationID == FakeUnitController.invocationID(1))
        try reopened.close()
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
