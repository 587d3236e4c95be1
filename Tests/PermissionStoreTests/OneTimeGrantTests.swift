import RelaunchContract
import Testing
@testable import PermissionStore

@Suite("PermissionService: one-time grants expire in the background")
struct OneTimeGrantTests {
    let app = ServiceHarness.app
    let unit = ServiceHarness.unit

    @Test("under android an allowed-once grant expires once the app stayed in the background: killed, journal says why")
    func expires() async throws {
        let harness = try ServiceHarness(policy: .android)
        try harness.preset(.camera, .allowedOnce)
        try harness.preset(.microphone, .allowed)
        #expect(harness.service.oneTimeDelay(for: app) == .seconds(60))
        let report = await harness.handle(.lifecycle(app: app, lifecycle: "background"))
        #expect(report.reply == .success(.done))
        let period = try #require(harness.service.lifecycles.backgroundPeriod(app))
        let outcome = await harness.service.expireOneTimeGrants(app: app, period: period)
        #expect(outcome.reply == .success(.done))
        #expect(harness.database.get(app: app, permission: .camera) == .notDetermined)
        #expect(harness.database.get(app: app, permission: .microphone) == .allowed)
        #expect(harness.units.kills == [unit])
        let change = try #require(outcome.logs.first { $0.messageID == .permissionChanged })
        #expect(change.fields["CHANGE_REASON"] == "one-time grant expired")
        #expect(change.fields["NEW_STATE"] == "not-determined" && change.fields["KILL"] == "true")
        #expect(change.message.contains("(one-time grant expired)"))
        #expect(outcome.signals == [ChangedSignal(app: app, permission: .camera, old: .allowedOnce, new: .notDetermined, killed: true)])
    }

    @Test("back in the foreground before the delay: the grant stays")
    func foregroundKeepsIt() async throws {
        let harness = try ServiceHarness(policy: .android)
        try harness.preset(.camera, .allowedOnce)
        _ = await harness.handle(.lifecycle(app: app, lifecycle: "background"))
        let period = try #require(harness.service.lifecycles.backgroundPeriod(app))
        _ = await harness.handle(.lifecycle(app: app, lifecycle: "active"))
        let outcome = await harness.service.expireOneTimeGrants(app: app, period: period)
        #expect(outcome.effects.isEmpty)
        #expect(harness.database.get(app: app, permission: .camera) == .allowedOnce)
        #expect(harness.units.kills.isEmpty)
    }

    @Test("ios has no one-time grants: no clock runs, and allowed-once is refused naming what camera accepts")
    func iosHasNone() async throws {
        let harness = try ServiceHarness(policy: .ios)
        #expect(harness.service.oneTimeDelay(for: app) == nil)
        let set = await harness.handle(.set(app: app, permission: "camera", state: "allowed-once"))
        let error = try #require(set.error)
        #expect(error.message.contains("accepted: not-determined, denied, allowed"), "\(error.message)")
    }

    @Test("a lifecycle report is taken (who may report is permissiond's access check); a bad word is InvalidArgs")
    func reports() async throws {
        let harness = try ServiceHarness(policy: .android)
        let own = await harness.handle(.lifecycle(app: app, lifecycle: "background"), as: 1000)
        #expect(own.reply == .success(.done))
        let bad = await harness.handle(.lifecycle(app: app, lifecycle: "asleep"))
        #expect(bad.error?.message.contains("accepted: background, active, standby") == true)
    }

    @Test("a standby's report is taken and changes nothing: no clock starts, an app in the background stays there")
    func standbyChangesNothing() async throws {
        let harness = try ServiceHarness(policy: .android)
        let fresh = await harness.handle(.lifecycle(app: app, lifecycle: AppState.Lifecycle.standbyReport))
        #expect(fresh.reply == .success(.done))
        #expect(harness.service.lifecycles.backgroundPeriod(app) == nil, "no background period began")
        _ = await harness.handle(.lifecycle(app: app, lifecycle: "background"))
        let period = try #require(harness.service.lifecycles.backgroundPeriod(app))
        _ = await harness.handle(.lifecycle(app: app, lifecycle: AppState.Lifecycle.standbyReport))
        #expect(harness.service.lifecycles.backgroundPeriod(app) == period, "still the same background period")
    }
}
