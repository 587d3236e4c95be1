internal import RelaunchContract
internal import Systemd

/// What permissiond's `LastKill` says about the last instance it killed.
struct LastKill: Sendable, Equatable {
    /// The killed instance's `$INVOCATION_ID`.
    var invocationID: String
    /// The permission whose change killed it.
    var permission: String
    /// The state before the change.
    var old: String
    /// The state after the change.
    var new: String
    /// When, in microseconds since the Unix epoch.
    var realtimeMicroseconds: UInt64
}

/// The app's side of `org.relaunch.Permissions1`: read-only calls made while launching.
struct PermissionClient: Sendable {
    /// How long one call may take before the launch goes on without the answer.
    static let timeout: Duration = .seconds(1)

    let connection: BusConnection
    let app: String

    /// `Get(app, permission)`.
    /// - Throws: ``BusError`` when permissiond cannot be reached or answers with an error or an unknown state.
    func state(of permission: Permission) throws(BusError) -> PermissionState {
        let reply = try call("Get", [.string(app), .string(permission.rawValue)])
        let text = try reply.string(at: 0)
        guard let state = PermissionState(rawValue: text) else {
            throw .failed("permissiond answered Get(\(app), \(permission)) with '\(text)', not one of \(PermissionState.acceptedNames)")
        }
        return state
    }

    /// `LastKill(app)`: nil when permissiond never killed the app.
    func lastKill() throws(BusError) -> LastKill? {
        let fields = try call("LastKill", [.string(app)]).structure(at: 0)
        let kill = LastKill(
            invocationID: try fields.string(at: 0), permission: try fields.string(at: 1), old: try fields.string(at: 2),
            new: try fields.string(at: 3), realtimeMicroseconds: try fields.uint64(at: 4))
        return kill.invocationID.isEmpty ? nil : kill
    }

    private func call(_ member: String, _ arguments: [BusValue]) throws(BusError) -> BusValues {
        try connection.call(
            destination: BusNames.Permissions.service, path: BusNames.Permissions.object,
            interface: BusNames.Permissions.interface, member: member, arguments: arguments, timeout: Self.timeout)
    }
}
