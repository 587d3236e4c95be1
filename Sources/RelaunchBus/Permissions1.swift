package import RelaunchContract
package import Systemd

// org.relaunch.Permissions1, described once: its methods are the rows of `Permissions1Method`;
// permissiond exports the description built from them, and every program calls them through
// `PermissionsClient` (sync here, async in Permissions1+Async.swift). Adding a method means adding a
// row there, a client call here, and its request in permissiond.

extension BusInterface {
    /// `org.relaunch.Permissions1`, served by permissiond at `/org/relaunch/Permissions1`, built from
    /// its table (``Permissions1Method``).
    package static let permissions1 = BusInterface(
        name: BusNames.Permissions.interface, methods: Permissions1Method.allCases.map(\.busMethod),
        signals: [Permissions1Method.changed, Permissions1Method.killMainProcess], errors: [PermissionsClient.failedErrorName])
}

/// What `LastKill(app)` says: the last instance of the app permissiond killed, and why.
package struct LastKill: Sendable, Hashable {
    /// The killed instance's `$INVOCATION_ID`.
    package var invocationID: String
    /// The permission whose change killed it.
    package var permission: String
    /// The state before the change.
    package var old: String
    /// The state after the change.
    package var new: String
    /// When, in microseconds since the Unix epoch.
    package var realtimeMicroseconds: UInt64

    /// Creates a record.
    package init(invocationID: String, permission: String, old: String, new: String, realtimeMicroseconds: UInt64) {
        self.invocationID = invocationID
        self.permission = permission
        self.old = old
        self.new = new
        self.realtimeMicroseconds = realtimeMicroseconds
    }
}

/// The typed client of `org.relaunch.Permissions1`.
package struct PermissionsClient: Sendable {
    /// `org.relaunch.Permissions1.Error.Failed`: the store or a kill failed.
    package static let failedErrorName = "org.relaunch.Permissions1.Error.Failed"
    /// The well-known name permissiond owns.
    package static let busName = BusNames.Permissions.service

    /// The connection calls go through.
    package let bus: BusConnection
    /// How long one call may take (nil: sd-bus's default).
    package var timeout: Duration?

    /// A client on `bus`.
    package init(bus: BusConnection, timeout: Duration? = nil) {
        self.bus = bus
        self.timeout = timeout
    }

    /// `Get(app, permission) -> state`.
    package func get(app: String, permission: String) throws(BusError) -> String {
        try call(.get, [.string(app), .string(permission)]).string(at: 0)
    }

    /// `Get` as the contract's state; an answer that is not one is a failure.
    package func state(app: String, of permission: Permission) throws(BusError) -> PermissionState {
        let text = try get(app: app, permission: permission.rawValue)
        guard let state = PermissionState(rawValue: text) else {
            throw .failed("permissiond answered Get(\(app), \(permission)) with \(Echo.quoted(text)), not one of \(PermissionState.acceptedNames)")
        }
        return state
    }

    /// `List(app) -> permission → state`.
    package func list(app: String) throws(BusError) -> [String: String] {
        try call(.list, [.string(app)]).stringDictionary(at: 0)
    }

    /// `ListApps() -> registered app ids`.
    package func listApps() throws(BusError) -> [String] {
        try call(.listApps).stringArray(at: 0)
    }

    /// `Set(app, permission, state)`.
    package func set(app: String, permission: String, state: String) throws(BusError) {
        try call(.set, [.string(app), .string(permission), .string(state)])
    }

    /// `Reset(app, permission)`; an empty permission resets every permission of the app.
    package func reset(app: String, permission: String) throws(BusError) {
        try call(.reset, [.string(app), .string(permission)])
    }

    /// `LastKill(app)`: nil when permissiond never killed the app.
    package func lastKill(app: String) throws(BusError) -> LastKill? {
        try Self.lastKill(from: call(.lastKill, [.string(app)]))
    }

    /// `List(app)` and `LastKill(app)`, both sent before either answer is awaited: what an app asks at
    /// launch, in one round trip's wait instead of two. ``PendingLaunchAnswers/wait()`` collects them.
    package func sendLaunchQueries(app: String) -> PendingLaunchAnswers {
        let interface = BusInterface.permissions1.name
        let calls = [Permissions1Method.list, .lastKill].map {
            BusMethodCallRequest(destination: Self.busName, path: BusNames.Permissions.object, interface: interface,
                                 member: $0.member, arguments: [.string(app)])
        }
        return PendingLaunchAnswers(calls: bus.send(calls, timeout: timeout))
    }

    /// The kill in a `LastKill` reply (`(sssst)`): nil when it names no invocation (never killed).
    package static func lastKill(from values: BusValues) throws(BusError) -> LastKill? {
        let fields = try values.structure(at: 0)
        let kill = LastKill(
            invocationID: try fields.string(at: 0), permission: try fields.string(at: 1), old: try fields.string(at: 2),
            new: try fields.string(at: 3), realtimeMicroseconds: try fields.uint64(at: 4))
        return kill.invocationID.isEmpty ? nil : kill
    }

    /// `Lifecycle(app, lifecycle)`: the app tells permissiond it went to the `background` or is
    /// `active` again, which starts and stops its one-time grants' clock (the app itself or root).
    package func lifecycle(app: String, _ lifecycle: String) throws(BusError) {
        try call(.lifecycle, [.string(app), .string(lifecycle)])
    }

    /// `TestHook(name)`: the sandbox's fault hooks (root, `RELAUNCH_TEST_HOOKS=1` only).
    package func testHook(_ name: String) throws(BusError) {
        try call(.testHook, [.string(name)])
    }

    @discardableResult
    private func call(_ method: Permissions1Method, _ arguments: [BusValue] = []) throws(BusError) -> BusValues {
        try bus.call(
            destination: Self.busName, path: BusNames.Permissions.object, interface: BusInterface.permissions1.name,
            member: method.member, arguments: arguments, timeout: timeout)
    }
}

/// permissiond's answers to an app's launch queries (``PermissionsClient/sendLaunchQueries(app:)``), on their way.
package struct PendingLaunchAnswers: Sendable {
    let calls: PendingBusCalls

    /// Waits for both answers: the app's permissions (`List`) and how its last instance ended (`LastKill`).
    package func wait() -> (list: Result<[String: String], BusError>, lastKill: Result<LastKill?, BusError>) {
        let replies = calls.wait()
        let list = replies[0].flatMap { values in Result { () throws(BusError) in try values.stringDictionary(at: 0) } }
        let lastKill = replies[1].flatMap { values in
            Result { () throws(BusError) in try PermissionsClient.lastKill(from: values) }
        }
        return (list, lastKill)
    }
}
