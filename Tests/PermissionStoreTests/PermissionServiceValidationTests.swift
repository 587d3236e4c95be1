import RelaunchContract
import Synchronization
import Testing
@testable import PermissionStore

@Suite("PermissionService: validation, authorization and queries")
struct PermissionServiceValidationTests {
    let app = ServiceHarness.app

    struct Invalid: Sendable, CustomTestStringConvertible {
        let request: PermissionRequest
        let says: [String]
        var testDescription: String { "\(request)" }
    }

    static let appForm = "[a-z0-9][a-z0-9._-]{0,63}"
    static let permissions = "accepted: camera, microphone, photos, contacts, calendars, location, notifications"
    static let states = "accepted: not-determined, denied, allowed"

    static let invalid: [Invalid] = [
        Invalid(request: .get(app: "Checkin", permission: "camera"), says: ["invalid app id 'Checkin'", appForm]),
        Invalid(request: .get(app: "", permission: "camera"), says: ["invalid app id ''", appForm]),
        Invalid(request: .list(app: "-demo"), says: ["invalid app id '-demo'", appForm]),
        Invalid(request: .list(app: String(repeating: "a", count: 65)), says: ["1 to 64 characters"]),
        Invalid(request: .lastKill(app: "a/b"), says: ["invalid app id 'a/b'"]),
        Invalid(request: .set(app: "a b", permission: "camera", state: "allowed"), says: ["invalid app id 'a b'"]),
        Invalid(request: .reset(app: "A", permission: ""), says: ["invalid app id 'A'"]),
        Invalid(request: .get(app: "checkin-demo", permission: "mic"), says: ["unknown permission 'mic'", permissions]),
        Invalid(request: .get(app: "checkin-demo", permission: "Camera"), says: ["unknown permission 'Camera'", permissions]),
        Invalid(request: .set(app: "checkin-demo", permission: "gps", state: "allowed"), says: ["unknown permission 'gps'", permissions]),
        Invalid(request: .reset(app: "checkin-demo", permission: "gps"), says: [permissions + ", or empty for every permission"]),
        Invalid(request: .set(app: "checkin-demo", permission: "camera", state: "yes"), says: ["unknown state 'yes'", states]),
        Invalid(request: .set(app: "checkin-demo", permission: "camera", state: "notDetermined"), says: ["'notDetermined'", states]),
    ]

    @Test("bad app ids, permissions and states get InvalidArgs saying what is accepted", arguments: invalid)
    func invalidArguments(_ invalid: Invalid) async throws {
        let harness = try ServiceHarness()
        let outcome = await harness.handle(invalid.request)
        let error = try #require(outcome.error)
        guard case .invalidArgs = error else { Issue.record("expected InvalidArgs, got \(error)"); return }
        #expect(error.dbusName == "org.freedesktop.DBus.Error.InvalidArgs")
        for phrase in invalid.says { #expect(error.message.contains(phrase), "\(error.message)") }
        #expect(outcome.effects.isEmpty)
        #expect(try harness.database.apps().isEmpty)
    }

    @Test("a non-root Set or Reset is refused with AccessDenied and stores nothing", arguments: [
        PermissionRequest.set(app: "checkin-demo", permission: "camera", state: "allowed"),
        .reset(app: "checkin-demo", permission: ""),
        .reset(app: "checkin-demo", permission: "camera"),
        .set(app: "Bad", permission: "nope", state: "nope"),
    ])
    func nonRootRefused(_ request: PermissionRequest) async throws {
        let harness = try ServiceHarness()
        try harness.preset(.camera, .denied)
        let outcome = await harness.handle(request, as: 1000)
        let error = try #require(outcome.error)
        #expect(error == .accessDenied(error.message))
        #expect(error.dbusName == "org.freedesktop.DBus.Error.AccessDenied")
        #expect(error.message.contains("only root (uid 0)") && error.message.contains("uid 1000"))
        #expect(error.message.contains("run the command as root"))
        #expect(outcome.effects.isEmpty && harness.units.kills.isEmpty)
        #expect(try harness.database.get(app: app, permission: .camera) == .denied)
        #expect(try harness.database.history(app: app).count == 1, "only the preset")
    }

    @Test("root reads every registered app; never-set permissions are not-determined")
    func queries() async throws {
        let harness = try ServiceHarness()
        try harness.preset(.photos, .allowed, app: "maps")
        #expect(await harness.handle(.get(app: "maps", permission: "photos")).reply == .success(.state(.allowed)))
        #expect(await harness.handle(.get(app: "maps", permission: "camera")).reply == .success(.state(.notDetermined)))
        let list = await harness.handle(.list(app: "maps")).reply
        #expect(list == .success(.states([.camera: .notDetermined, .photos: .allowed])), "only the permissions maps uses")
        #expect(await harness.handle(.listApps).reply == .success(.apps(["checkin-demo", "maps"])))
        #expect(await harness.handle(.lastKill(app: app)).reply == .success(.lastKill(nil)))

        await #expect(harness.handle(.set(app: app, permission: "camera", state: "allowed")).reply == .success(.done))
        let kill = KillRecord(
            app: app, unit: ServiceHarness.unit, permission: .camera, old: .notDetermined, new: .allowed,
            invocationID: FakeUnitController.invocationID(1), at: 1_002)
        #expect(await harness.handle(.lastKill(app: app)).reply == .success(.lastKill(kill)))
    }

    static let privateReads: [PermissionRequest] = [
        .get(app: "maps", permission: "photos"), .list(app: "maps"), .lastKill(app: "maps"),
    ]

    @Test("an app reads its own permissions and kills: the caller runs in the unit registered for it", arguments: privateReads)
    func appReadsItsOwn(_ request: PermissionRequest) async throws {
        let harness = try ServiceHarness()
        try harness.preset(.photos, .allowed, app: "maps")
        let outcome = await harness.handle(request, as: 1000, in: "maps.service")
        #expect(outcome.error == nil, "\(outcome.reply)")
        #expect(harness.service.readsWithoutAsking(request, caller: Caller(uid: 1000, unit: "maps.service")))
    }

    @Test("anyone else reading an app's permissions or kills gets AccessDenied; ListApps is open", arguments: privateReads)
    func strangersRefused(_ request: PermissionRequest) async throws {
        let harness = try ServiceHarness()
        try harness.preset(.photos, .allowed, app: "maps")
        for unit in [nil, "checkin-demo.service", "session-3.scope", "maps.service.d"] {
            let error = try #require(await harness.handle(request, as: 1000, in: unit).error, "\(unit ?? "no unit")")
            #expect(error.dbusName == "org.freedesktop.DBus.Error.AccessDenied")
            #expect(error.message.contains("uid 1000") && error.message.contains("maps"))
            #expect(!harness.service.readsWithoutAsking(request, caller: Caller(uid: 1000, unit: unit)))
        }
        #expect(await harness.handle(.listApps, as: 1000, in: nil).reply == .success(.apps(["checkin-demo", "maps"])))
    }

    /// Grants reads of any app (as polkit's `org.relaunch.permissions.read` does for the group
    /// `relaunch`) and records whom it was asked about.
    final class ReadGranting: Authorizer {
        let asked = Mutex<[String]>([])
        func authorizeChange(by caller: Caller) async throws(PermissionServiceError) {
            throw .accessDenied("no changes")
        }
        func authorizeRead(of app: String, by caller: Caller) async throws(PermissionServiceError) {
            asked.withLock { $0.append("\(caller.uid) \(app)") }
        }
    }

    @Test("the authorizer is asked about reads of another app, and only those", arguments: privateReads)
    func authorizerDecidesOtherReads(_ request: PermissionRequest) async throws {
        let authorizer = ReadGranting()
        let harness = try ServiceHarness(authorizer: authorizer)
        #expect(await harness.handle(request, as: 1000, in: "session-3.scope").error == nil)
        #expect(await harness.handle(request, as: 1000, in: "maps.service").error == nil)
        #expect(await harness.handle(request, as: 0, in: nil).error == nil)
        #expect(authorizer.asked.withLock { $0 } == ["1000 maps"], "asked once: for the caller outside maps' unit")
    }

    @Test("ListApps is answered without asking anyone; Set and Reset never are, not even root's")
    func whatIsReadWithoutAsking() throws {
        let harness = try ServiceHarness()
        #expect(harness.service.readsWithoutAsking(.listApps, caller: Caller(uid: 1000, unit: nil)))
        for request in [PermissionRequest.set(app: app, permission: "camera", state: "allowed"), .reset(app: app, permission: "")] {
            #expect(!harness.service.readsWithoutAsking(request, caller: Caller(uid: 0, unit: nil)))
            #expect(!harness.service.readsWithoutAsking(request, caller: Caller(uid: 1000, unit: ServiceHarness.unit)))
        }
    }

    @Test("a caller may be asked to authenticate only when its call said so: not interactive unless told")
    func callersAreNotInteractiveByDefault() {
        #expect(Caller(uid: 1000).interactive == false)
        #expect(Caller(uid: 1000, busName: ":1.5", unit: "session-2.scope").interactive == false)
        #expect(Caller(uid: 1000, interactive: true).interactive)
    }

    @Test("a store failure answers Failed naming the database file")
    func storeFailure() async throws {
        let harness = try ServiceHarness()
        try harness.database.close()
        let outcome = await harness.handle(.set(app: app, permission: "camera", state: "allowed"))
        let error = try #require(outcome.error)
        #expect(error.dbusName == "org.relaunch.Permissions1.Error.Failed")
        #expect(error.message.contains(harness.database.path))
        #expect(outcome.effects.isEmpty && harness.units.kills.isEmpty)
    }

    @Test("an unregistered app is refused for every call, naming the registered ones", arguments: [
        PermissionRequest.get(app: "never-seen", permission: "camera"), .list(app: "never-seen"),
        .lastKill(app: "never-seen"), .set(app: "never-seen", permission: "camera", state: "allowed"),
        .reset(app: "never-seen", permission: ""),
    ])
    func unregistered(request: PermissionRequest) async throws {
        let harness = try ServiceHarness()
        let error = try #require(await harness.handle(request).error)
        #expect(error.dbusName == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(error.message.hasPrefix("unknown app 'never-seen'; registered: checkin-demo, maps"))
        #expect(try harness.database.history(app: "never-seen").isEmpty)
    }

    @Test("a permission the app does not use is refused, naming those it uses")
    func unusedPermission() async throws {
        let harness = try ServiceHarness()
        let error = try #require(await harness.handle(.set(app: "maps", permission: "microphone", state: "allowed")).error)
        #expect(error.message == "maps does not use the microphone permission; it uses: camera, photos")
        #expect(harness.database.get(app: "maps", permission: .microphone) == .notDetermined)
    }
}
