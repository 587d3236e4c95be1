package import RelaunchBus
package import RelaunchContract
package import Systemd

#if canImport(Glibc)
internal import Glibc
#endif

/// A registered Relaunch app under systemd as a caller outside it reaches it: its unit through
/// systemd, its `org.relaunch.App1`, and its permissions through permissiond, with event-driven
/// waits for it to launch, stop and come back after a kill.
///
/// RelaunchTesting's `TestedApp` is the public face of it; `relaunchctl permission set --wait` uses it
/// directly. Calls on one value are meant to be made one at a time.
package struct AppLink: Sendable {
    /// The app id (`checkin-demo`).
    package let id: String
    /// The unit permissiond kills and systemd relaunches (`checkin-demo.service`).
    package let unit: String
    /// Where the app serves `org.relaunch.App1`, or nil for an app that serves none.
    package let busName: String?
    /// How long a wait may take (launch, relaunch, stop) before it fails.
    package var timeout: Duration
    /// The permission profile a change is judged by (what it should do to the running app).
    package var profile: KillPolicy

    package let bus: SystemBus
    package let watch: UnitWatch

    /// Attaches to the registered app `id` and waits until its running instance has finished
    /// launching (it is started when it is not running).
    /// - Parameters:
    ///   - id: The app id of its apps.d file.
    ///   - appsFolders: Where registrations are read: `$RELAUNCH_APPS_D` (folders separated by `:`)
    ///     when set, else the standard apps.d folders.
    ///   - timeout: How long each wait may take.
    /// - Throws: ``RelaunchTestingError/Code/unknownApp`` listing the registered apps; a failure to
    ///   reach the bus, systemd or the app.
    package static func attach(
        _ id: String, appsFolders: [String]? = nil, timeout: Duration = .seconds(30)
    ) async throws(RelaunchTestingError) -> AppLink {
        let registry = AppRegistry.load(folders: appsFolders ?? Self.defaultFolders)
        guard let registration = registry[id] else {
            let known = registry.ids.isEmpty ? "none" : registry.ids.joined(separator: ", ")
            throw RelaunchTestingError(.unknownApp, "no app \"\(id)\" is registered; registered: \(known)")
        }
        let bus = try SystemBus()
        let daemonProfile = getenv("RELAUNCH_KILL_POLICY").flatMap { KillPolicy(rawValue: String(cString: $0)) }
        let app = AppLink(
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
        self.profile = profile
        self.bus = bus
        self.watch = watch
    }

    private static var defaultFolders: [String] {
        if let raw = getenv("RELAUNCH_APPS_D").map({ String(cString: $0) }), !raw.isEmpty {
            return raw.split(separator: ":").map(String.init)
        }
        return AppRegistry.defaultFolders
    }

    /// The app's state, typed.
    package func state() async throws(RelaunchTestingError) -> AppState {
        try AppState(json: string(from: await app1(.state), App1Method.state.member), app: id)
    }

    // MARK: Permissions

    /// Sets `permission` to `state` in permissiond; when that kills the running app, waits until
    /// systemd has relaunched it and it has finished launching, and says how it came back.
    package func setPermission(_ permission: Permission, to state: PermissionState) async throws(RelaunchTestingError) -> PermissionChange {
        return try await change(reading: { () async throws(RelaunchTestingError) in [permission: try await storeState(permission)] },
                                to: state, because: "the \(permission) change to \(state)") {
            () async throws(RelaunchTestingError) in
            try await permissiond { (permissions) async throws(BusError) in try await permissions.set(app: id, permission: permission.rawValue, state: state.rawValue) }
        }
    }

    /// Resets `permission` (every permission of the app when nil) to not-determined; waits for a
    /// relaunch as ``setPermission(_:to:)``.
    package func resetPermission(_ permission: Permission?) async throws(RelaunchTestingError) -> PermissionChange {
        let what = permission.map { "the \($0) reset" } ?? "the reset of every permission"
        return try await change(reading: { () async throws(RelaunchTestingError) in
            if let permission { return [permission: try await storeState(permission)] }
            return try await storeStates()
        }, to: .notDetermined, because: what) { () async throws(RelaunchTestingError) in
            try await permissiond { (permissions) async throws(BusError) in try await permissions.reset(app: id, permission: permission?.rawValue ?? "") }
        }
    }

    /// What `profile` says changing each of `previous` to `state` does: kill if any kills, else
    /// notified if any is seen in place, else nothing.
    package static func expectedEffect(
        _ previous: [Permission: PermissionState], to state: PermissionState, under profile: KillPolicy
    ) -> TransitionEffect {
        let effects = previous.map { permission, old in profile.effect(of: permission, from: old, to: state) }
        if effects.contains(.kill) { return .kill }
        return effects.contains(.notified) ? .notified : .nothing
    }

    /// `permission` as permissiond's store has it.
    package func storeState(_ permission: Permission) async throws(RelaunchTestingError) -> PermissionState {
        let text = try await permissiond { (permissions) async throws(BusError) in try await permissions.get(app: id, permission: permission.rawValue) }
        guard let state = PermissionState(rawValue: text) else {
            throw RelaunchTestingError(.unexpectedReply, "permissiond answered Get(\(id), \(permission)) with \"\(text)\"")
        }
        return state
    }

    // MARK: Waiting

    /// Reads the permissions before (`readPrevious`), the unit and the last kill, all three at once (none
    /// depends on another, and each is a round trip), then performs the change and waits as it says.
    private func change(
        reading readPrevious: @Sendable () async throws(RelaunchTestingError) -> [Permission: PermissionState],
        to state: PermissionState, because reason: String,
        _ perform: () async throws(RelaunchTestingError) -> Void
    ) async throws(RelaunchTestingError) -> PermissionChange {
        let watch = watch
        async let snapshot = Self.outcome { () async throws(RelaunchTestingError) in try await watch.snapshot() }
        async let lastKill = Self.outcome { () async throws(RelaunchTestingError) in try await self.lastKillTime() }
        let previous = try await readPrevious()
        let before = try await snapshot.get()
        let killBefore = try await lastKill.get()
        try await perform()
        // permissiond answers after the kill it decided (commit, kill, record, reply).
        let killed = try await lastKillTime() != killBefore
        var result = PermissionChange(
            app: id, previous: previous, new: state, wasKilled: killed,
            expected: Self.expectedEffect(previous, to: state, under: profile), relaunch: nil)
        if killed {
            result.relaunch = try await waitUntilLaunched(otherThan: before.invocationID, mainPID: before.mainPID, because: reason)
        }
        return result
    }

    /// Waits until the unit is active in an instance other than `oldInvocation` (or, when `oldMainPID`
    /// is given, in another main process: a standby's take-over keeps the invocation) whose app says it
    /// finished launching, then reads how it launched.
    package func waitUntilLaunched(
        otherThan oldInvocation: String?, mainPID oldMainPID: UInt32? = nil, because reason: String
    ) async throws(RelaunchTestingError) -> Relaunch {
        let what = oldInvocation == nil ? "\(unit) to be active and \(id) to finish launching"
            : "a new instance of \(unit) to finish launching"
        let (invocation, snapshot) = try await watch.wait(for: "\(what) (\(reason))", timeout: timeout) {
            () async throws(RelaunchTestingError) -> Probe<(String, UnitSnapshot)> in
            let now = try await watch.snapshot()
            if now.activeState == "failed" {
                throw RelaunchTestingError(.appFailed, "\(id) did not come back after \(reason): \(unit) is \(now.summary) (see journalctl -u \(unit))")
            }
            guard let current = Readiness.runningInstance(activeState: now.activeState, invocationID: now.invocationID) else {
                return .notYet("\(unit) \(now.summary)")
            }
            if let oldInvocation, current == oldInvocation, oldMainPID.map({ now.mainPID == $0 || now.mainPID == 0 }) ?? true {
                return .notYet("\(unit) \(now.summary) in the instance that was to be killed (\(oldInvocation), pid \(now.mainPID))")
            }
            guard let busName else { return .done((current, now)) }
            let answer = await bus.attempt(
                destination: busName, path: BusInterface.app1ObjectPath, interface: BusInterface.app1.name, member: App1Method.ready.member)
            switch answer {
            case .failure(let error) where error.isUnreachable:
                return .notYet("\(unit) \(now.summary); \(busName) does not answer yet (\(error.message))")
            case .failure(let error):
                throw RelaunchTestingError.bus(error, talkingTo: id)
            case .success(let values):
                guard let ready = try? values.structure(at: 0), let finished = try? ready.bool(at: 0),
                      let instance = try? ready.string(at: 1)
                else { throw RelaunchTestingError(.unexpectedReply, "\(id)'s Ready() reply could not be read") }
                switch Readiness.judge(finished: finished, answeredBy: instance, current: current) {
                case .done(let invocation): return .done((invocation, now))
                case .notYet(let why): return .notYet("\(id) (instance \(instance), the unit's is \(current)): \(why)")
                }
            }
        }
        // A take-over (same invocation, another main process) never leaves `active`: the unit's
        // timestamps are those of its last start, no part of this relaunch.
        let exitToReady: Duration? = oldInvocation != nil && invocation != oldInvocation
            && snapshot.activeEnterUSec > snapshot.activeExitUSec
            && snapshot.activeExitUSec > 0
            ? .microseconds(Int64(snapshot.activeEnterUSec - snapshot.activeExitUSec)) : nil
        let tookOver = oldInvocation != nil && invocation == oldInvocation
        guard busName != nil else {
            return Relaunch(invocationID: invocation, outcome: .fresh, discardReason: nil, restoredVia: [:],
                            exitToReady: exitToReady, state: nil, tookOver: tookOver)
        }
        let state = try await state()
        return Relaunch(
            invocationID: invocation, outcome: state.launch.outcome, discardReason: state.launch.discardReason,
            restoredVia: state.restoredVia, exitToReady: exitToReady, state: state, tookOver: tookOver)
    }

    /// Waits until the unit has stopped (inactive or failed).
    package func waitUntilStopped(because reason: String) async throws(RelaunchTestingError) {
        try await watch.wait(for: "\(unit) to stop (\(reason))", timeout: timeout) {
            () async throws(RelaunchTestingError) -> Probe<Void> in
            let now = try await watch.snapshot()
            return ["inactive", "failed"].contains(now.activeState) ? .done(()) : .notYet("\(unit) \(now.summary)")
        }
    }

    /// What `body` returned or threw, as a value (for `async let`, which keeps no typed throws).
    private static func outcome<Value: Sendable>(
        _ body: @Sendable () async throws(RelaunchTestingError) -> Value
    ) async -> Result<Value, RelaunchTestingError> {
        do throws(RelaunchTestingError) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    // MARK: Calls

    /// Calls `method` of the app's `org.relaunch.App1`.
    @discardableResult
    package func app1(_ method: App1Method, _ arguments: [BusValue] = []) async throws(RelaunchTestingError) -> BusValues {
        guard let busName else {
            throw RelaunchTestingError(.unknownApp, "\(id) serves no org.relaunch.App1 (its registration has no BusName=), so it cannot be driven")
        }
        return try await bus.call(
            id, destination: busName, path: BusInterface.app1ObjectPath, interface: BusInterface.app1.name,
            member: method.member, arguments)
    }

    /// Calls permissiond through its client, with a minute's bound (a change is answered after
    /// the kill it decided); a failure, or a reply that cannot be read, names permissiond.
    private func permissiond<Answer>(
        _ body: (PermissionsClient) async throws(BusError) -> Answer
    ) async throws(RelaunchTestingError) -> Answer {
        do {
            return try await body(PermissionsClient(bus: bus.connection, timeout: .seconds(60)))
        } catch {
            throw .bus(error, talkingTo: "permissiond")
        }
    }

    /// Calls `member` of systemd's manager.
    package func systemd(_ member: String, _ arguments: [BusValue]) async throws(RelaunchTestingError) {
        try await bus.call(
            "systemd", destination: SystemdManager.destination, path: SystemdManager.path,
            interface: SystemdManager.managerInterface, member: member, arguments)
    }

    private func storeStates() async throws(RelaunchTestingError) -> [Permission: PermissionState] {
        let states = try await permissiond { (permissions) async throws(BusError) in try await permissions.list(app: id) }
        var result: [Permission: PermissionState] = [:]
        for (name, text) in states {
            guard let permission = Permission(rawValue: name), let state = PermissionState(rawValue: text) else { continue }
            result[permission] = state
        }
        return result
    }

    /// When permissiond last killed the app (0 when never): a kill for a change moves it.
    private func lastKillTime() async throws(RelaunchTestingError) -> UInt64 {
        try await permissiond { (permissions) async throws(BusError) in try await permissions.lastKill(app: id) }?.realtimeMicroseconds ?? 0
    }

    /// The string of a one-string reply to `member`.
    package func string(from values: BusValues, _ member: String) throws(RelaunchTestingError) -> String {
        do {
            return try values.string(at: 0)
        } catch {
            throw RelaunchTestingError(.unexpectedReply, "\(id)'s \(member)() reply could not be read: \(error.message)")
        }
    }
}
