import RelaunchContract
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

    @Test("root only, the default authorizer: anyone else is refused with AccessDenied saying to run as root")
    func rootOnly() async throws {
        let authorizer = RootOnly()
        let user = Caller(uid: 1000, busName: ":1.99")
        for caller in [Caller(uid: 0), user] {
            let change = await refusal { () throws(PermissionServiceError) in try await authorizer.authorizeChange(by: caller) }
            let read = await refusal { () throws(PermissionServiceError) in try await authorizer.authorizeRead(of: "maps", by: caller) }
            #expect((change == nil) == (caller.uid == 0) && (read == nil) == (caller.uid == 0), "uid \(caller.uid)")
        }
        let change = try #require(await refusal { () throws(PermissionServiceError) in try await authorizer.authorizeChange(by: user) })
        #expect(change.dbusName == "org.freedesktop.DBus.Error.AccessDenied")
        #expect(change.message.contains("only root (uid 0)") && change.message.contains("uid 1000"))
        #expect(change.message.contains("run the command as root"))
        let read = try #require(await refusal { () throws(PermissionServiceError) in try await authorizer.authorizeRead(of: "maps", by: user) })
        #expect(read.dbusName == "org.freedesktop.DBus.Error.AccessDenied")
        #expect(read.message.contains("uid 1000") && read.message.contains("maps"))
    }

    /// The error `body` threw, or nil.
    func refusal(_ body: () async throws(PermissionServiceError) -> Void) async -> PermissionServiceError? {
        do throws(PermissionServiceError) { try await body() } catch { return error }
        return nil
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

    @Test("the app itself is a caller in the unit registered for it, whatever its uid; nothing else is")
    func theApp() throws {
        let harness = try ServiceHarness()
        #expect(harness.service.isTheApp("maps", caller: Caller(uid: 1000, unit: "maps.service")))
        #expect(harness.service.isTheApp("maps", caller: Caller(uid: 0, unit: "maps.service")))
        for unit in [nil, "checkin-demo.service", "session-3.scope", "maps.service.d"] {
            #expect(!harness.service.isTheApp("maps", caller: Caller(uid: 1000, unit: unit)), "\(unit ?? "no unit")")
        }
        #expect(!harness.service.isTheApp("nowhere", caller: Caller(uid: 1000, unit: "nowhere.service")), "not registered")
        #expect(!harness.service.isTheApp("maps", caller: Caller(uid: 0)), "root is root, not the app")
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
