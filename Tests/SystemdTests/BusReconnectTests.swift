import Logging
import Synchronization
import Systemd
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Connections that stay usable over time and across bus restarts, against a real dbus-daemon
/// whose auth_timeout is short, so "past the timeout" takes a fraction of a second, not 30 s.
@Suite("Bus connections over time and restarts")
struct BusReconnectTests {
    /// The peer every test calls: `org.freedesktop.DBus.GetId` on the bus itself.
    static func busID(_ connection: BusConnection) throws(BusError) -> String {
        try connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetId", timeout: .seconds(2)
        ).string(at: 0)
    }

    @Test("an unprocessed connection is dropped after the auth timeout: the hazard BusLink exists for")
    func unprocessedConnectionDies() async throws {
        let bus = try PrivateBus(authTimeoutMilliseconds: 200)
        defer { bus.stop() }
        let connection = try BusConnection(address: bus.address)
        try await Task.sleep(for: .milliseconds(600))  // the passing of time is what is tested
        #expect(throws: BusError.self) { try Self.busID(connection) }
    }

    @Test("a BusLink opened and left idle past the auth timeout still calls on its first connection")
    func linkSurvivesIdle() async throws {
        let bus = try PrivateBus(authTimeoutMilliseconds: 200)
        defer { bus.stop() }
        let address = bus.address
        let link = BusLink { () throws(SystemdError) in try BusConnection(address: address) }
        defer { link.close() }
        try link.connect()  // opened, never called: only its own loop can complete the handshake
        try await Task.sleep(for: .milliseconds(600))  // the passing of time is what is tested
        let id = try link.withConnection { (connection) throws(BusError) in try Self.busID(connection) }
        #expect(!id.isEmpty)
        #expect(link.connectionsOpened == 1, "the first connection stayed alive")
    }

    @Test("a BusLink reconnects when its bus was restarted, and the call goes through")
    func linkReconnects() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let address = bus.address
        let link = BusLink { () throws(SystemdError) in try BusConnection(address: address) }
        defer { link.close() }
        let before = try link.withConnection { (connection) throws(BusError) in try Self.busID(connection) }
        try bus.restart()
        let after = try link.withConnection { (connection) throws(BusError) in try Self.busID(connection) }
        #expect(before != after, "a new dbus-daemon has a new id")
        #expect(link.connectionsOpened == 2)
    }

    @Test("BusServing serves again after its bus was restarted")
    func servingReconnects() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let attached = Atomic<Int>(0)
        let address = bus.address
        let serving = BusServing(
            open: { () throws(SystemdError) in try BusConnection(address: address) },
            logger: Logger(label: "test"))
        let server = Task {
            try await serving.run { connection, _ in
                let object = try connection.export(.permissions1) { (call: BusMethodCall) throws(BusError) -> BusReply in
                    .string("served")
                }
                try connection.requestName("org.relaunch.Permissions1")
                attached.add(1, ordering: .relaxed)
                return [object]
            }
        }
        defer { server.cancel() }
        let get = { () throws -> String in
            let client = try BusConnection(address: address)
            return try client.call(
                destination: "org.relaunch.Permissions1", path: "/org/relaunch/Permissions1",
                interface: "org.relaunch.Permissions1", member: "Get", arguments: ["app", "camera"],
                timeout: .seconds(2)
            ).string(at: 0)
        }
        try await eventually(within: .seconds(5), "the name is served") { (try? get()) == "served" }
        try bus.restart()
        try await eventually(within: .seconds(5), "the name is served again") { (try? get()) == "served" }
        #expect(attached.load(ordering: .relaxed) == 2)
        server.cancel()
        try await server.value
    }
}
