import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A client connection that stays usable for the life of a daemon: processed by a loop of its own
/// from the moment it opens, and opened again when the bus or the peer went away.
///
/// A connection that nobody processes is dropped by dbus-daemon after its authentication timeout
/// (30 s), and one whose bus restarted is dead for good; either way every later call would fail.
/// A link opens its connection on first use, runs a loop on it at once (so the handshake completes
/// and a disconnect is noticed), and when a call fails because the connection is gone, or the loop
/// saw it close, it opens a new one and tries that call once more.
package final class BusLink: Sendable {
    private let open: @Sendable () throws(SystemdError) -> BusConnection
    private let current = Mutex<BusConnection?>(nil)
    private let opened = Atomic<Int>(0)

    /// A link that opens its connections with `open` (the system bus by default).
    package init(open: @escaping @Sendable () throws(SystemdError) -> BusConnection = { () throws(SystemdError) in try .system() }) {
        self.open = open
    }

    /// How many connections this link has opened (1 until the first reconnect).
    package var connectionsOpened: Int { opened.load(ordering: .acquiring) }

    /// Runs `body` with a live connection; when it fails because the connection is gone, opens a
    /// new connection and runs it once more.
    ///
    /// - Throws: ``BusError``: `body`'s own error, or why no connection could be opened.
    package func withConnection<R>(_ body: (BusConnection) throws(BusError) -> R) throws(BusError) -> R {
        let connection = try live()
        do throws(BusError) {
            return try body(connection)
        } catch where Self.isDisconnect(error) || !connection.isOpen {
            drop(connection)
            return try body(try live())
        }
    }

    /// Calls a method (see ``BusConnection/call(destination:path:interface:member:arguments:timeout:)``)
    /// over a live connection, reconnecting once if the connection turns out to be gone.
    @discardableResult
    package func call(
        destination: String?, path: String, interface: String, member: String,
        arguments: [BusValue] = [], timeout: Duration? = nil
    ) throws(BusError) -> BusValues {
        try withConnection { (connection) throws(BusError) in
            try connection.call(
                destination: destination, path: path, interface: interface, member: member,
                arguments: arguments, timeout: timeout)
        }
    }

    /// Calls a method over a live connection without holding it across the round trip
    /// (``BusConnection/callAsync(destination:path:interface:member:arguments:timeout:interactive:)``),
    /// reconnecting once if the connection turns out to be gone. A peer that never answers delays
    /// only this call: the link's other calls go on.
    @discardableResult
    package func callAsync(
        destination: String?, path: String, interface: String, member: String,
        arguments: [BusValue] = [], timeout: Duration? = nil, interactive: Bool = false
    ) async throws(BusError) -> BusValues {
        let connection = try live()
        do throws(BusError) {
            return try await connection.callAsync(
                destination: destination, path: path, interface: interface, member: member,
                arguments: arguments, timeout: timeout, interactive: interactive)
        } catch where !error.isCancelled && (Self.isDisconnect(error) || !connection.isOpen) {
            drop(connection)
            return try await live().callAsync(
                destination: destination, path: path, interface: interface, member: member,
                arguments: arguments, timeout: timeout, interactive: interactive)
        }
    }

    /// Opens the connection now (with its loop) instead of on first use, e.g. to learn at start
    /// that the bus is there.
    package func connect() throws(BusError) {
        _ = try live()
    }

    /// Closes the connection (a later use opens a new one).
    package func close() {
        let connection = current.withLock { current in
            defer { current = nil }
            return current
        }
        connection?.stop()
    }

    /// Whether `error` says the connection itself is gone (not that the peer answered an error).
    static func isDisconnect(_ error: BusError) -> Bool {
        let codes: Set<Int32> = [ENOTCONN, ECONNRESET, EPIPE, ESHUTDOWN, EBADF]
        return error.name == "org.freedesktop.DBus.Error.Disconnected" || error.errno.map(codes.contains) == true
    }

    /// The open connection, or a new one with its loop running.
    private func live() throws(BusError) -> BusConnection {
        let result: Result<BusConnection, BusError> = current.withLock { current in
            if let connection = current, connection.isOpen { return .success(connection) }
            current?.stop()
            current = nil
            do throws(SystemdError) {
                let connection = try open()
                try connection.startLoopThread()
                opened.add(1, ordering: .releasing)
                current = connection
                return .success(connection)
            } catch {
                return .failure(BusError(errno: error.code.rawValue, operation: "open a bus connection (\(error))"))
            }
        }
        return try result.get()
    }

    private func drop(_ connection: BusConnection) {
        current.withLock { current in
            if current === connection { current = nil }
        }
        connection.stop()
    }
}
