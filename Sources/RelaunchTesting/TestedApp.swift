internal import RelaunchBus
internal import RelaunchDriver
// The permissions and states a test names (`.camera`, `.allowed`), and what a call returns or throws
// (AppState, AppElement, PermissionChange, Relaunch, RelaunchTestingError: relaunchctl reads them too), are
// RelaunchContract's: exported, so `import RelaunchTesting` is the one import a test needs.
@_exported public import RelaunchContract
internal import Systemd

/// A registered Relaunch app running under systemd, driven from a test as a person would use it.
///
/// Attach by app id (its apps.d registration names the unit and bus name), then drive it, read its
/// screen and state, and change its permissions; a change that kills it waits until systemd has
/// relaunched it and says how it came back:
/// ```swift
/// let app = try await TestedApp.attach("checkin-demo")
/// try await app.tap("check-in")
/// try await app.type("Blue Bottle", into: "venue")
/// try await app.background()
/// let change = try await app.setPermission(.camera, to: .allowed)
/// #expect(change.relaunch?.outcome == .restored)
/// #expect(try await app.state()["modal"]?["venue"]?.string == "Blue Bottle")
/// ```
/// Waits are event-driven (the unit's properties and the app's bus name) and bounded by
/// ``timeout``; one that runs out throws `RelaunchTestingError.Code.timedOut` saying what it waited
/// for and what it saw last. Calls on one value are meant to be made one at a time, as a test does.
public struct TestedApp: Sendable {
    /// The app id (`checkin-demo`).
    public var id: String { link.id }
    /// The unit permissiond kills and systemd relaunches (`checkin-demo.service`).
    public var unit: String { link.unit }
    /// Where the app serves `org.relaunch.App1`, or nil for an app that serves none.
    public var busName: String? { link.busName }
    /// How long a wait may take (launch, relaunch, stop) before it fails.
    public var timeout: Duration {
        get { link.timeout }
        set { link.timeout = newValue }
    }
    /// The name of the app's permission profile (`ios` or `android`): its registration's
    /// `Profile=`/`KillPolicy=`, else `$RELAUNCH_KILL_POLICY`, else `ios`. Set it when permissiond
    /// runs with another profile than the registration says.
    public var profile: String {
        get { link.profile.rawValue }
        set { link.profile = KillPolicy(rawValue: newValue) ?? link.profile }
    }

    /// The unit, the app and permissiond on the bus, and the waits (RelaunchDriver, shared with relaunchctl).
    var link: AppLink
    var bus: SystemBus { link.bus }
    var watch: UnitWatch { link.watch }

    /// Attaches to the registered app `id` and waits until its running instance has finished
    /// launching (it is started when it is not running).
    /// - Parameters:
    ///   - id: The app id of its apps.d file.
    ///   - appsFolders: Where registrations are read: `$RELAUNCH_APPS_D` (folders separated by `:`)
    ///     when set, else the standard apps.d folders.
    ///   - timeout: How long each wait may take.
    /// - Throws: `RelaunchTestingError.Code.unknownApp` listing the registered apps; a failure to
    ///   reach the bus, systemd or the app.
    public static func attach(
        _ id: String, appsFolders: [String]? = nil, timeout: Duration = .seconds(30)
    ) async throws(RelaunchTestingError) -> TestedApp {
        TestedApp(link: try await AppLink.attach(id, appsFolders: appsFolders, timeout: timeout))
    }

    // MARK: Driving

    /// Taps `element` (a name from ``elements()``, e.g. `check-in` or `tab:venues`).
    public func tap(_ element: String) async throws(RelaunchTestingError) { try await link.app1(.tap, [.string(element)]) }

    /// Types `text` into `field` (e.g. `note`).
    public func type(_ text: String, into field: String) async throws(RelaunchTestingError) {
        try await link.app1(.type, [.string(field), .string(text)])
    }

    /// Sends the app to the background: it preserves its state, as UIKit does.
    public func background() async throws(RelaunchTestingError) { try await link.app1(.background) }

    /// Brings the app back to the foreground.
    public func foreground() async throws(RelaunchTestingError) { try await link.app1(.foreground) }

    /// Quits the app and waits until its unit has stopped. `force` is the user's force quit, which
    /// discards saved state (the next launch is fresh with reason `force-quit`).
    public func quit(force: Bool = false) async throws(RelaunchTestingError) {
        try await link.app1(.quit, [.bool(force)])
        try await link.waitUntilStopped(because: force ? "a force quit" : "a quit")
    }

    /// Stops the app's unit through systemd (SIGTERM: a background app preserves first) and waits
    /// until it has stopped.
    public func terminate() async throws(RelaunchTestingError) {
        try await link.systemd("StopUnit", [.string(unit), .string("replace")])
        try await link.waitUntilStopped(because: "systemctl stop")
    }

    /// Kills the app's main process with `signal` through systemd, as the system kills an app
    /// (9, SIGKILL, by default: no chance to preserve), and waits until systemd has relaunched it.
    /// - Returns: How it came back.
    @discardableResult
    public func kill(signal: Int32 = 9) async throws(RelaunchTestingError) -> Relaunch {
        let before = try await watch.snapshot()
        try await link.systemd("KillUnit", [.string(unit), .string("main"), .int32(signal)])
        return try await link.waitUntilLaunched(otherThan: before.invocationID, mainPID: before.mainPID, because: "signal \(signal)")
    }

    /// Starts the app's unit through systemd and waits until it has finished launching.
    /// - Returns: How it launched.
    @discardableResult
    public func launch() async throws(RelaunchTestingError) -> Relaunch {
        let before = try await watch.snapshot()
        try await link.systemd("StartUnit", [.string(unit), .string("replace")])
        let running = ["active", "activating", "reloading"].contains(before.activeState)
        return try await link.waitUntilLaunched(otherThan: running ? nil : before.invocationID, because: "systemctl start")
    }

    // MARK: Reading

    /// The current screen drawn as text, as `relaunchctl app screen` prints it.
    public func screen() async throws(RelaunchTestingError) -> String {
        try link.string(from: await link.app1(.screen), App1Method.screen.member)
    }

    /// What the current screen accepts.
    public func elements() async throws(RelaunchTestingError) -> [AppElement] {
        let values = try await link.app1(.elements)
        do {
            return try AppElement.elements(from: values)
        } catch {
            throw RelaunchTestingError(.unexpectedReply, "\(id)'s Elements() reply could not be read: \(error.message)")
        }
    }

    /// The app's state, typed.
    public func state() async throws(RelaunchTestingError) -> AppState { try await link.state() }

    // MARK: Permissions

    /// `permission` as permissiond's store has it and as the running app last learned it.
    public func permission(_ permission: Permission) async throws(RelaunchTestingError) -> PermissionReading {
        let store = try await link.storeState(permission)
        let app = busName == nil ? nil : try await state().permissions[permission]
        return PermissionReading(store: store, app: app)
    }

    /// Sets `permission` to `state` in permissiond (root, or polkit's `org.relaunch.permissions.set`).
    ///
    /// When the change kills the running app, waits until systemd has relaunched it and it has
    /// finished launching (bounded by ``timeout``), and says how it came back. A change to the state
    /// the permission already has changes nothing and kills nothing.
    @discardableResult
    public func setPermission(_ permission: Permission, to state: PermissionState) async throws(RelaunchTestingError) -> PermissionChange {
        try await link.setPermission(permission, to: state)
    }

    /// Resets `permission` (every permission of the app when nil) to not-determined, as
    /// `tccutil reset` and `simctl privacy reset` do; waits for a relaunch as ``setPermission(_:to:)``.
    @discardableResult
    public func resetPermission(_ permission: Permission? = nil) async throws(RelaunchTestingError) -> PermissionChange {
        try await link.resetPermission(permission)
    }

    /// Waits until the running instance has finished launching (restored, if it restores).
    @discardableResult
    public func waitUntilReady() async throws(RelaunchTestingError) -> Relaunch {
        try await link.waitUntilLaunched(otherThan: nil, because: "waiting for ready")
    }
}
