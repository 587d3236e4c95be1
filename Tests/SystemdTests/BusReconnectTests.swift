import Logging
import Synchronization
import Systemd
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Connections that stay usable over time and across bus restarts, against a real dbus-daemon
/// whose auth_timeout is short, so "past the timeout" takes seconds, not 30 s. The timeout is long
/// next to a local handshake on any machine, and "past it" is an event, not a sleep: a bare socket
/// opened alongside, which never authenticates, has been dropped by dbus-daemon.
@Suite("Bus connections over time and restarts")
struct BusReconnectTests {
    /// The peer every test calls: `org.freedesktop.DBus.GetId` on the bus itself.
    static func busID(_ connection: BusConnection) throws(BusError) -> String {
        try connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetId", timeout: .seconds(2)
        ).string(at: 0)
    }

    /// dbus-daemon's auth_timeout in these tests.
    static let authTimeoutMilliseconds = 3000
    /// How long to wait for dbus-daemon to drop a connection that never authenticated: generous, the
    /// wait ends when it happens.
    static let dropBound: Duration = .seconds(120)

    /// A socket connected to the bus that never says anything (not even the credentials byte).
    final class SilentSocket {
        let fd: CInt

        init(path: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            try #require(fd >= 0, "socket: errno \(errno)")
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
            }
            let status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            try #require(status == 0, "connect \(path): errno \(errno)")
        }

        deinit { close(fd) }

        /// Whether dbus-daemon has closed its end (hang-up or end of file), without waiting.
        var isDropped: Bool {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 0) == 1 else { return false }
            if entry.revents & Int16(POLLHUP | POLLERR) != 0 { return true }
            var byte: UInt8 = 0
            return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
        }
    }

    /// Returns once dbus-daemon dropped `silent` (so its auth_timeout has passed for every
    /// connection opened before it), or fails saying so after ``dropBound``.
    static func waitPastAuthTimeout(_ silent: SilentSocket) async throws {
        try await eventually(within: dropBound, "dbus-daemon drops a connection that never authenticated") {
            silent.isDropped
        }
    }

    @Test("an unprocessed connection is dropped after the auth timeout: the hazard BusLink exists for")
    func unprocessedConnectionDies() async throws {
        let bus = try PrivateBus(authTimeoutMilliseconds: Self.authTimeoutMilliseconds)
        defer { bus.stop() }
        let connection = try BusConnection(address: bus.address)
        let silent = try SilentSocket(path: bus.socketPath)  // opened after: dropped after it
        try await Self.waitPastAuthTimeout(silent)
        #expect(throws: BusError.self) { try Self.busID(connection) }
    }

    @Test("a BusLink opened and left idle past the auth timeout still calls on its first connection")
    func linkSurvivesIdle() async throws {
        let bus = try PrivateBus(authTimeoutMilliseconds: Self.authTimeoutMilliseconds)
        defer { bus.stop() }
        let address = bus.address
        let link = BusLink { () throws(SystemdError) in try BusConnection(address: address) }
        defer { link.close() }
        try link.connect()  // opened, never called: only its own loop can complete the handshake
        let silent = try SilentSocket(path: bus.socketPath)  // opened after: dropped after it
        try await Self.waitPastAuthTimeout(silent)
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
        try await eventually(within: stateWaitLimit, "the name is served") { (try? get()) == "served" }
        try bus.restart()
        try await eventually(within: stateWaitLimit, "the name is served again") { (try? get()) == "served" }
        #expect(attached.load(ordering: .relaxed) == 2)
        server.cancel()
        try await server.value
    }
}
