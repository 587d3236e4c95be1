import RelaunchContract
package import Systemd

// The same client for async code: each call is sent with `sd_bus_call_async` and completed by the
// connection's loop (`BusConnection.callAsync`), so a slow permissiond delays only its own callers
// and no thread of the cooperative pool blocks. The connection must have a running loop
// (`startLoopThread()`, `run()`, a `BusLink`'s or `BusServing`'s); without one a call fails with
// `org.freedesktop.DBus.Error.Disconnected`. In async code these overloads are the ones chosen.
extension PermissionsClient {
    /// `Get(app, permission) -> state`, completed by the connection's loop.
    package func get(app: String, permission: String) async throws(BusError) -> String {
        try await call(.get, [.string(app), .string(permission)]).string(at: 0)
    }

    /// `List(app) -> permission → state`, completed by the connection's loop.
    package func list(app: String) async throws(BusError) -> [String: String] {
        try await call(.list, [.string(app)]).stringDictionary(at: 0)
    }

    /// `ListApps() -> registered app ids`, completed by the connection's loop.
    package func listApps() async throws(BusError) -> [String] {
        try await call(.listApps).stringArray(at: 0)
    }

    /// `Set(app, permission, state)`, completed by the connection's loop.
    package func set(app: String, permission: String, state: String) async throws(BusError) {
        try await call(.set, [.string(app), .string(permission), .string(state)])
    }

    /// `Reset(app, permission)`, completed by the connection's loop.
    package func reset(app: String, permission: String) async throws(BusError) {
        try await call(.reset, [.string(app), .string(permission)])
    }

    /// `Lifecycle(app, lifecycle)`, completed by the connection's loop.
    package func lifecycle(app: String, _ lifecycle: String) async throws(BusError) {
        try await call(.lifecycle, [.string(app), .string(lifecycle)])
    }

    /// `LastKill(app)`, completed by the connection's loop: nil when permissiond never killed the app.
    package func lastKill(app: String) async throws(BusError) -> LastKill? {
        try Self.lastKill(from: await call(.lastKill, [.string(app)]))
    }

    @discardableResult
    private func call(_ method: Permissions1Method, _ arguments: [BusValue] = []) async throws(BusError) -> BusValues {
        try await bus.callAsync(
            destination: Self.busName, path: BusNames.Permissions.object, interface: BusInterface.permissions1.name,
            member: method.member, arguments: arguments, timeout: timeout)
    }
}
