internal import RelaunchBus
// The permissions and states a test names (`.camera`, `.allowed`) are RelaunchContract's: exported, so
// `import RelaunchTesting` is the one import a test needs.
@_exported public import RelaunchContract
internal import Systemd

#if canImport(Glibc)
internal import Glibc
#endif

/// Something the app's current screen accepts (App1's `Elements()`).
public struct AppElement: Sendable, Hashable {
    /// What can be done with it.
    public enum Kind: String, Sendable, Hashable {
        /// ``TestedApp/tap(_:)`` it.
        case tap
        /// ``TestedApp/type(_:into:)`` into it.
        case type
    }

    /// The element or field name, e.g. `check-in` or `note`.
    public var name: String
    /// Tap or type.
    public var kind: Kind
    /// One line for people.
    public var description: String

    /// An element named `name` of kind `kind`.
    public init(name: String, kind: Kind, description: String) {
        self.name = name
        self.kind = kind
        self.description = description
    }
}

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
/// ``timeout``; one that runs out throws ``RelaunchTestingError/Code/timedOut`` saying what it waited
/// for and what it saw last. Calls on one value are meant to be made one at a time, as a test does.
public struct TestedApp: Sendable {
    /// The app id (`checkin-demo`).
    public let id: String
    /// The unit permissiond kills and systemd relaunches (`checkin-demo.service`).
    public let unit: String
    /// Where the app serves `org.relaunch.App1`, or nil for an app that serves none.
    public let busName: String?
    /// How long a wait may take (launch, relaunch, stop) before it fails.
    public var timeout: Duration
    /// The name of the app's permission profile (`ios` or `android`): its registration's
    /// `Profile=`/`KillPolicy=`, else `$RELAUNCH_KILL_POLICY`, else `ios`. Set it when permissiond
    /// runs with another profile than the registration says.
    public var profile: String {
        get { profileName.rawValue }
        set { profileName = KillPolicy(rawValue: newValue) ?? profileName }
    }
    var profileName: KillPolicy

    let bus: SystemBus
    let watch: UnitWatch

    /// Attaches to the registered app `id` and waits until its running instance has finished
    /// launching (it is started when it is not running).
    /// - Parameters:
    ///   - id: The app id of its apps.d file.
    ///   - appsFolders: Where registrations are read: `$RELAUNCH_APPS_D` (folders separated by `:`)
    ///     when set, else the standard apps.d folders.
    ///   - timeout: How long each wait may take.
    /// - Throws: ``RelaunchTestingError/Code/unknownApp`` listing the registered apps; a failure to
    ///   reach the bus, systemd or the app.
    public static func attach(
        _ id: String, appsFolders: [String]? = nil, timeout: Duration = .seconds(30)
    ) async throws(RelaunchTestingError) -> TestedApp {
        let registry = AppRegistry.load(folders: appsFolders ?? Self.defaultFolders)
        guard let registration = registry[id] else {
            let known = registry.ids.isEmpty ? "none" : registry.ids.joined(separator: ", ")
            throw RelaunchTestingError(.unknownApp, "no app \"\(id)\" is registered; registered: \(known)")
        }
        let bus = try SystemBus()
        let daemonProfile = getenv("RELAUNCH_KILL_POLICY").flatMap { KillPolicy(rawValue: String(cString: $0)) }
        let app = TestedApp(
            id: id, unit: registration.unit, busName: registration.busName, timeout: timeout,
            profile: registration.killPolicy ?? daemonProfile ?? .ios, bus: bus,
            watch: try await UnitWatch(bus: bus, unit: registration.unit, busName: registration.busName ?? id))
        let now = try await app.watch.snapshot()
        if !["active", "activating", "reloading"].contains(now.activeState) {
            try await app.systemd("StartUnit", [.string(app.unit), .string("replace")])
        }
        _ = try await app.waitUntilLaunched(otherThan: nil, because: "attached")
        return app
    }

    private init(
        id: String, unit: String, busName: String?, timeout: Duration, profile: KillPolicy, bus: SystemBus, watch: UnitWatch
    ) {
        self.id = id
        self.unit = unit
        self.busName = busName
        self.timeout = timeout
        self.profileName = profile
        self.bus = bus
        self.watch = watch
    }

    private static var defaultFolders: [String] {
        if let raw = getenv("RELAUNCH_APPS_D").map({ String(cString: $0) }), !raw.isEmpty {
            return raw.split(separator: ":").map(String.init)
        }
        return AppRegistry.defaultFolders
    }

    // MARK: Driving

    /// Taps `element` (a name from ``elements()``, e.g. `check-in` or `tab:venues`).
    public func tap(_ element: String) async throws(RelaunchTestingError) { try await app1("Tap", [.string(element)]) }

    /// Types `text` into `field` (e.g. `note`).
    public func type(_ text: String, into field: String) async throws(RelaunchTestingError) {
        try await app1("Type", [.string(field), .string(text)])
    }

    /// Sends the app to the background: it preserves its state, as UIKit does.
    public func background() async throws(RelaunchTestingError) { try await app1("Background") }

    /// Brings the app back to the foreground.
    public func foreground() async throws(RelaunchTestingError) { try await app1("Foreground") }

    /// Quits the app and waits until its unit has stopped. `force` is the user's force quit, which
    /// discards saved state (the next launch is fresh with reason `force-quit`).
    public func quit(force: Bool = false) async throws(RelaunchTestingError) {
        try await app1("Quit", [.bool(force)])
        try await waitUntilStopped(because: force ? "a force quit" : "a quit")
    }

    /// Stops the app's unit through systemd (SIGTERM: a background app preserves first) and waits
    /// until it has stopped.
    public func terminate() async throws(RelaunchTestingError) {
        try await systemd("StopUnit", [.string(unit), .string("replace")])
        try await waitUntilStopped(because: "systemctl stop")
    }

    /// Kills the app's main process with `signal` through systemd, as the system kills an app
    /// (9, SIGKILL, by default: no chance to preserve), and waits until systemd has relaunched it.
    /// - Returns: How it came back.
    @discardableResult
    public func kill(signal: Int32 = 9) async throws(RelaunchTestingError) -> Relaunch {
        let before = try await watch.snapshot()
        try await systemd("KillUnit", [.string(unit), .string("main"), .int32(signal)])
        return try await waitUntilLaunched(otherThan: before.invocationID, because: "signal \(signal)")
    }

    /// Starts the app's unit through systemd and waits until it has finished launching.
    /// - Returns: How it launched.
    @discardableResult
    public func launch() async throws(RelaunchTestingError) -> Relaunch {
        let before = try await watch.snapshot()
        try await systemd("StartUnit", [.string(unit), .string("replace")])
        let running = ["active", "activating", "reloading"].contains(before.activeState)
        return try await waitUntilLaunched(otherThan: running ? nil : before.invocationID, because: "systemctl start")
    }

    // MARK: Reading

    /// The current screen drawn as text, as `relaunchctl app screen` prints it.
    public func screen() async throws(RelaunchTestingError) -> String {
        try string(from: await app1("Screen"), "Screen")
    }

    /// What the current screen accepts.
    public func elements() async throws(RelaunchTestingError) -> [AppElement] {
        let values = try await app1("Elements")
        do {
            return try RelaunchBus.AppElement.elements(from: values).map {
                AppElement(name: $0.name, kind: $0.kind == .type ? .type : .tap, description: $0.description)
            }
        } catch {
            throw RelaunchTestingError(.unexpectedReply, "\(id)'s Elements() reply could not be read: \(error.message)")
        }
    }

    /// The app's state, typed.
    public func state() async throws(RelaunchTestingError) -> AppState {
        try AppState(json: string(from: await app1("State"), "State"), app: id)
    }

    // MARK: Permissions

    /// `permission` as permissiond's store has it and as the running app last learned it.
    public func permission(_ permission: Permission) async throws(RelaunchTestingError) -> PermissionReading {
        let store = try await storeState(permission)
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
        let previous = try await storeState(permission)
        return try await change([permission: previous], to: state, because: "the \(permission) change to \(state)") {
            () async throws(RelaunchTestingError) in
            try await permissiond("Set", [.string(id), .string(permission.rawValue), .string(state.rawValue)])
        }
    }

    /// Resets `permission` (every permission of the app when nil) to not-determined, as
    /// `tccutil reset` and `simctl privacy reset` do; waits for a relaunch as ``setPermission(_:to:)``.
    @discardableResult
    public func resetPermission(_ permission: Permission? = nil) async throws(RelaunchTestingError) -> PermissionChange {
        var previous: [Permission: PermissionState] = [:]
        if let permission {
            previous[permission] = try await storeState(permission)
        } else {
            previous = try await storeStates()
        }
        let what = permission.map { "the \($0) reset" } ?? "the reset of every permission"
        return try await change(previous, to: .notDetermined, because: what) { () async throws(RelaunchTestingError) in
            try await permissiond("Reset", [.string(id), .string(permission?.rawValue ?? "")])
        }
    }

    /// Waits until the running instance has finished launching (restored, if it restores).
    @discardableResult
    public func waitUntilReady() async throws(RelaunchTestingError) -> Relaunch {
        try await waitUntilLaunched(otherThan: nil, because: "waiting for ready")
    }

    /// What `profile` says changing each of `previous` to `state` does: kill if any kills, else
    /// notified if any is seen in place, else nothing.
    static func expectedEffect(
        _ previous: [Permission: PermissionState], to state: PermissionState, under profile: KillPolicy
    ) -> TransitionEffect {
        let effects = previous.map { permission, old in profile.effect(of: permission, from: old, to: state) }
        if effects.contains(.kill) { return .kill }
        return effects.contains(.notified) ? .notified : .nothing
    }

    // MARK: Waiting

    private func change(
        _ previous: [Permission: PermissionState], to state: PermissionState, because reason: String,
        _ perform: () async throws(RelaunchTestingError) -> Void
    ) async throws(RelaunchTestingError) -> PermissionChange {
        let before = try await watch.snapshot()
        let killBefore = try await lastKillTime()
        try await perform()
        // permissiond answers after the kill it decided (commit, kill, record, reply).
        let killed = try await lastKillTime() != killBefore
        var result = PermissionChange(
            app: id, previous: previous, new: state, wasKilled: killed,
            expected: Self.expectedEffect(previous, to: state, under: profileName), relaunch: nil)
        if killed {
            result.relaunch = try await waitUntilLaunched(otherThan: before.invocationID, because: reason)
        }
        return result
    }

    /// Waits until the unit is active in an instance other than `oldInvocation` whose app says it
    /// finished launching, then reads how it launched.
    func waitUntilLaunched(otherThan oldInvocation: String?, because reason: String) async throws(RelaunchTestingError) -> Relaunch {
        let what = oldInvocation == nil ? "\(unit) to be active and \(id) to finish launching"
            : "a new instance of \(unit) to finish launching"
        let (invocation, snapshot) = try await watch.wait(for: "\(what) (\(reason))", timeout: timeout) {
            () async throws(RelaunchTestingError) -> UnitWatch.Look<(String, UnitSnapshot)> in
            let now = try await watch.snapshot()
            if now.activeState == "failed" {
                throw RelaunchTestingError(.appFailed, "\(id) did not come back after \(reason): \(unit) is \(now.summary) (see journalctl -u \(unit))")
            }
            guard now.activeState == "active", !now.invocationID.isEmpty else { return .notYet("\(unit) \(now.summary)") }
            if let oldInvocation, now.invocationID == oldInvocation {
                return .notYet("\(unit) \(now.summary) in the instance that was to be killed (\(oldInvocation))")
            }
            guard let busName else { return .done((now.invocationID, now)) }
            let answer = await bus.attempt(
                destination: busName, path: BusInterface.app1ObjectPath, interface: BusInterface.app1.name, member: "Ready")
            switch answer {
            case .failure(let error) where error.isUnreachable:
                return .notYet("\(unit) \(now.summary); \(busName) does not answer yet (\(error.message))")
            case .failure(let error):
                throw RelaunchTestingError.bus(error, talkingTo: id)
            case .success(let values):
                guard let ready = try? values.structure(at: 0), let finished = try? ready.bool(at: 0),
                      let instance = try? ready.string(at: 1)
                else { throw RelaunchTestingError(.unexpectedReply, "\(id)'s Ready() reply could not be read") }
                if finished && instance == now.invocationID { return .done((instance, now)) }
                return .notYet(finished ? "\(id) answered from instance \(instance), not the unit's \(now.invocationID)"
                    : "\(id) is still launching")
            }
        }
        let exitToReady: Duration? = oldInvocation != nil && snapshot.activeEnterUSec > snapshot.activeExitUSec
            && snapshot.activeExitUSec > 0
            ? .microseconds(Int64(snapshot.activeEnterUSec - snapshot.activeExitUSec)) : nil
        guard busName != nil else {
            return Relaunch(invocationID: invocation, outcome: .fresh, discardReason: nil, restoredVia: [:],
                            exitToReady: exitToReady, state: nil)
        }
        let state = try await state()
        return Relaunch(
            invocationID: invocation, outcome: state.launch.outcome, discardReason: state.launch.discardReason,
            restoredVia: state.restoredVia, exitToReady: exitToReady, state: state)
    }

    private func waitUntilStopped(because reason: String) async throws(RelaunchTestingError) {
        try await watch.wait(for: "\(unit) to stop (\(reason))", timeout: timeout) {
            () async throws(RelaunchTestingError) -> UnitWatch.Look<Void> in
            let now = try await watch.snapshot()
            return ["inactive", "failed"].contains(now.activeState) ? .done(()) : .notYet("\(unit) \(now.summary)")
        }
    }

    // MARK: Calls

    @discardableResult
    func app1(_ member: String, _ arguments: [BusValue] = []) async throws(RelaunchTestingError) -> BusValues {
        guard let busName else {
            throw RelaunchTestingError(.unknownApp, "\(id) serves no org.relaunch.App1 (its registration has no BusName=), so it cannot be driven")
        }
        return try await bus.call(
            id, destination: busName, path: BusInterface.app1ObjectPath, interface: BusInterface.app1.name,
            member: member, arguments)
    }

    @discardableResult
    private func permissiond(_ member: String, _ arguments: [BusValue]) async throws(RelaunchTestingError) -> BusValues {
        try await bus.call(
            "permissiond", destination: PermissionsClient.busName, path: BusNames.Permissions.object,
            interface: BusInterface.permissions1.name, member: member, arguments, timeout: .seconds(60))
    }

    func systemd(_ member: String, _ arguments: [BusValue]) async throws(RelaunchTestingError) {
        try await bus.call(
            "systemd", destination: SystemdManager.destination, path: SystemdManager.path,
            interface: SystemdManager.managerInterface, member: member, arguments)
    }

    private func storeState(_ permission: Permission) async throws(RelaunchTestingError) -> PermissionState {
        let text = try string(from: await permissiond("Get", [.string(id), .string(permission.rawValue)]), "Get")
        guard let state = PermissionState(rawValue: text) else {
            throw RelaunchTestingError(.unexpectedReply, "permissiond answered Get(\(id), \(permission)) with \"\(text)\"")
        }
        return state
    }

    private func storeStates() async throws(RelaunchTestingError) -> [Permission: PermissionState] {
        let values = try await permissiond("List", [.string(id)])
        guard let states = try? values.stringDictionary(at: 0) else {
            throw RelaunchTestingError(.unexpectedReply, "permissiond's List(\(id)) reply could not be read")
        }
        var result: [Permission: PermissionState] = [:]
        for (name, text) in states {
            guard let permission = Permission(rawValue: name), let state = PermissionState(rawValue: text) else { continue }
            result[permission] = state
        }
        return result
    }

    /// When permissiond last killed the app (0 when never): a kill for a change moves it.
    private func lastKillTime() async throws(RelaunchTestingError) -> UInt64 {
        let values = try await permissiond("LastKill", [.string(id)])
        do {
            return try PermissionsClient.lastKill(from: values)?.realtimeMicroseconds ?? 0
        } catch {
            throw RelaunchTestingError(.unexpectedReply, "permissiond's LastKill(\(id)) reply could not be read: \(error.message)")
        }
    }

    private func string(from values: BusValues, _ member: String) throws(RelaunchTestingError) -> String {
        do {
            return try values.string(at: 0)
        } catch {
            throw RelaunchTestingError(.unexpectedReply, "\(id)'s \(member)() reply could not be read: \(error.message)")
        }
    }
}
