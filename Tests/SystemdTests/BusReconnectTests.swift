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

    /// A `Get` of the name these tests serve, over a new connection to the bus at `address`.
    static func servedGet(_ address: String) throws -> String {
        let client = try BusConnection(address: address)
        return try client.call(
            destination: "org.relaunch.Permissions1", path: "/org/relaunch/Permissions1",
            interface: "org.relaunch.Permissions1", member: "Get", arguments: ["app", "camera"],
            timeout: .seconds(2)
        ).string(at: 0)
    }

    /// The set-up these tests serve: `Get` answers `answer(first)`, on org.relaunch.Permissions1;
    /// counts into `attached`.
    static func serveGet(
        counting attached: Attachments, answer: @escaping @Sendable (Bool) -> String
    ) -> @Sendable (BusConnection, Bool) throws -> [any Sendable] {
        { connection, first in
            let object = try connection.export(.permissions1) { (call: BusMethodCall) throws(BusError) -> BusReply in
                .string(answer(first))
            }
            try connection.requestName("org.relaunch.Permissions1")
            attached.count.add(1, ordering: .relaxed)
            return [object]
        }
    }

    /// How many connections a set-up attached.
    final class Attachments: Sendable {
        let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// BusServing serves again after its bus was restarted. `startedAtOnce`: its first connection was
    /// started before any task ran the service (as an app does right after READY=1), and serves then
    /// already; the task that runs the service waits on it, then connects and sets up again.
    @Test("BusServing serves again after its bus was restarted", arguments: [false, true])
    func servingReconnects(startedAtOnce: Bool) async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let attached = Attachments()
        let address = bus.address
        let serving = BusServing(
            open: { () throws(SystemdError) in try BusConnection(address: address) },
            logger: Logger(label: "test"))
        let attach = Self.serveGet(counting: attached) { first in first ? "first" : "again" }
        var started: BusServingStart?
        if startedAtOnce {
            started = try serving.start(try BusConnection(address: address), attach: attach)
            // Served now, by its own thread: no task runs the service yet.
            #expect(try Self.servedGet(address) == "first")
        }
        let server = Task { [started] in try await serving.run(startedWith: started, attach: attach) }
        defer { server.cancel() }
        try await eventually(within: stateWaitLimit, "the name is served") { (try? Self.servedGet(address)) == "first" }
        try bus.restart()
        try await eventually(within: stateWaitLimit, "the name is served again") { (try? Self.servedGet(address)) == "again" }
        #expect(attached.value == 2)
        server.cancel()
        try await server.value
    }

    /// Cancelling the task that runs a started connection stops that connection's loop, and the task returns.
    @Test func cancellingStopsAStartedConnection() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let connection = try BusConnection(address: bus.address)
        let serving = BusServing(logger: Logger(label: "test"))
        let started = try serving.start(connection) { _, _ in [] }
        try await eventually(within: stateWaitLimit, "the started loop runs") { connection.isRunning }
        let server = Task { try await serving.run(startedWith: started) { _, _ in [] } }
        server.cancel()
        try await server.value
        #expect(!connection.isRunning)
    }

    /// A set-up that throws on the connection to be started leaves no loop running and says why.
    @Test func aStartWhoseSetUpFailsServesNothing() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let connection = try BusConnection(address: bus.address)
        let serving = BusServing(logger: Logger(label: "test"))
        #expect(throws: BusError.self) {
            _ = try serving.start(connection) { _, _ in throw BusError.failed("no name for this one") }
        }
        #expect(!connection.isRunning)
    }
}
