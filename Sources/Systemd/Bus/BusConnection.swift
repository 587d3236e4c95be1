import CSystemd
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A connection to a D-Bus bus (or directly to systemd), safe to share between threads.
///
/// sd-bus is not thread-safe, so every use of the underlying `sd_bus` is serialized by a lock, held
/// only while sd-bus is used (a message written, the loop's processing), never across a round trip
/// when a loop runs: calls are completed by the loop (``callAsync(destination:path:interface:member:arguments:timeout:interactive:)``).
/// Method handlers, signal handlers and anything they call on this connection run on the thread
/// that runs ``run()``/``runBlocking()``, while it holds that lock; calls from handlers back into the
/// same connection (e.g. emitting a signal, calling systemd) are allowed.
///
/// Client calls work without a running loop. Exported objects and signal subscriptions need one.
package final class BusConnection: @unchecked Sendable {
    // Invariant: `bus` is only touched inside `withBus`, i.e. under `lock` or on the thread owning it.
    private let bus: OpaquePointer
    private let lock = Mutex<Void>(())
    private let owner = Atomic<UInt>(0)
    let loop: RunLoopState

    private init(bus: OpaquePointer) throws(SystemdError) {
        self.bus = bus
        do throws(SystemdError) {
            self.loop = try RunLoopState()
        } catch {
            sd_bus_flush_close_unref(bus)
            throw error
        }
    }

    deinit {
        sd_bus_flush_close_unref(bus)
    }

    /// Connects to the system bus (`DBUS_SYSTEM_BUS_ADDRESS` or `/run/dbus/system_bus_socket`).
    package static func system() throws(SystemdError) -> BusConnection {
        var bus: OpaquePointer?
        _ = try sdCall("sd_bus_open_system", on: "the system bus") { sd_bus_open_system(&bus) }
        return try BusConnection(bus: bus!)
    }

    /// Connects to `address` (e.g. `unix:path=/run/dbus/system_bus_socket`).
    ///
    /// - Parameters:
    ///   - address: A D-Bus address.
    ///   - isBusClient: `true` for a message bus (sends `Hello`, gets a unique name); `false` for a
    ///     direct peer connection such as systemd's private socket.
    package convenience init(address: String, isBusClient: Bool = true) throws(SystemdError) {
        var raw: OpaquePointer?
        _ = try sdCall("sd_bus_new") { sd_bus_new(&raw) }
        let bus = raw!
        do throws(SystemdError) {
            _ = try sdCall("sd_bus_set_address", on: address) { sd_bus_set_address(bus, address) }
            _ = try sdCall("sd_bus_set_bus_client", on: address) { sd_bus_set_bus_client(bus, isBusClient ? 1 : 0) }
            _ = try sdCall("sd_bus_start", on: address) { sd_bus_start(bus) }
        } catch {
            sd_bus_unref(bus)
            throw error
        }
        try self.init(bus: bus)
    }

    /// Connects directly to systemd's private socket (root only; works without a system bus).
    package static func systemdPrivate(path: String = "/run/systemd/private") throws(SystemdError) -> BusConnection {
        try BusConnection(address: "unix:path=" + path, isBusClient: false)
    }

    /// This connection's unique name on the bus (e.g. `:1.42`), or nil on a direct connection.
    package var uniqueName: String? {
        withBus { bus in
            var name: UnsafePointer<CChar>?
            guard sd_bus_get_unique_name(bus, &name) >= 0, let name else { return nil }
            return String(cString: name)
        }
    }

    /// Takes the well-known `name` (fails if someone else owns it).
    /// - Throws: ``BusError``, e.g. AccessDenied when the bus policy forbids owning it.
    package func requestName(_ name: String) throws(BusError) {
        try withBus { (bus) throws(BusError) in
            let result = sd_bus_request_name(bus, name, 0)
            if result < 0 { throw BusError(errno: -result, operation: "request the bus name \(name)") }
        }
    }

    /// Gives up the well-known `name`.
    package func releaseName(_ name: String) throws(BusError) {
        try withBus { (bus) throws(BusError) in
            let result = sd_bus_release_name(bus, name)
            if result < 0 { throw BusError(errno: -result, operation: "release the bus name \(name)") }
        }
    }

    /// Calls a method and waits for its reply, blocking the calling thread.
    ///
    /// When a loop runs on this connection, the call is completed by that loop and the connection is
    /// not held while the reply is awaited; without a loop (or on the loop's own thread) it is an
    /// `sd_bus_call` that holds the connection for the round trip. Async code calls
    /// ``callAsync(destination:path:interface:member:arguments:timeout:interactive:)`` instead.
    ///
    /// - Parameters:
    ///   - destination: The bus name (nil on a direct connection).
    ///   - path: The object path.
    ///   - interface: The interface name.
    ///   - member: The method name.
    ///   - arguments: The arguments in order; their types make the call's signature.
    ///   - timeout: How long to wait; nil for sd-bus's default (25 s).
    /// - Returns: The reply's values.
    /// - Throws: ``BusError``: the error reply, or a local failure (see ``BusError/isUnreachable``).
    @discardableResult
    package func call(
        destination: String?, path: String, interface: String, member: String,
        arguments: [BusValue] = [], timeout: Duration? = nil
    ) throws(BusError) -> BusValues {
        if callsGoThroughLoop {
            return try callThroughLoop(
                destination: destination, path: path, interface: interface, member: member, arguments: arguments,
                timeout: timeout)
        }
        // No loop (a CLI), or called from the loop's own thread: sd_bus_call, holding the connection.
        return try withBus { (bus) throws(BusError) in
            var message: OpaquePointer?
            var result = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
            if result < 0 { throw BusError(errno: -result, operation: "\(interface).\(member)") }
            defer { sd_bus_message_unref(message) }
            result = busAppend(message!, arguments)
            if result < 0 { throw BusError(errno: -result, operation: "\(interface).\(member) arguments") }

            var error = sd_bus_error()
            defer { sd_bus_error_free(&error) }
            var reply: OpaquePointer?
            let usec = timeout.map { UInt64(max(0, $0 / .microseconds(1))) } ?? 0
            result = sd_bus_call(bus, message, usec, &error, &reply)
            if result < 0 { throw BusError(&error, result: result) }
            defer { sd_bus_message_unref(reply) }
            return BusValues(try busRead(reply!).get())
        }
    }

    /// Reads a property through `org.freedesktop.DBus.Properties.Get`, unwrapping the variant.
    package func property(
        destination: String?, path: String, interface: String, name: String
    ) throws(BusError) -> BusValue {
        try call(
            destination: destination, path: path, interface: "org.freedesktop.DBus.Properties",
            member: "Get", arguments: [.string(interface), .string(name)]
        ).variant(at: 0)
    }

    /// Emits a signal from `path`.
    ///
    /// Example: `emitSignal(path: "/org/relaunch/Permissions1", interface: BusInterface.permissions1.name,
    /// member: "Changed", arguments: ["myapp", "camera", "denied", "allowed", true])`.
    package func emitSignal(path: String, interface: String, member: String, arguments: [BusValue]) throws(BusError) {
        try withBus { (bus) throws(BusError) in
            var message: OpaquePointer?
            var result = sd_bus_message_new_signal(bus, &message, path, interface, member)
            if result < 0 { throw BusError(errno: -result, operation: "signal \(interface).\(member)") }
            defer { sd_bus_message_unref(message) }
            result = busAppend(message!, arguments)
            if result >= 0 { result = sd_bus_send(bus, message, nil) }
            if result < 0 { throw BusError(errno: -result, operation: "signal \(interface).\(member)") }
        }
    }

    /// Sends everything queued (e.g. signals) before returning.
    package func flush() throws(BusError) {
        try withBus { (bus) throws(BusError) in
            let result = sd_bus_flush(bus)
            if result < 0 { throw BusError(errno: -result, operation: "sd_bus_flush") }
        }
    }

    /// Runs `body` with exclusive use of the sd-bus connection (re-entrant on the loop's own thread).
    func withBus<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        let me = Self.currentThreadID
        if owner.load(ordering: .acquiring) == me {
            return try body(bus)
        }
        var outcome: Result<R, E>?
        lock.withLock { _ in
            owner.store(me, ordering: .releasing)
            defer { owner.store(0, ordering: .releasing) }
            do throws(E) {
                outcome = .success(try body(bus))
            } catch {
                outcome = .failure(error)
            }
        }
        // Another thread may have read messages into sd-bus's queue: let a running loop look again.
        // The loop's own thread looks again anyway; waking it from there would make it spin.
        if loop.loopThread.load(ordering: .acquiring) != me {
            loop.wake()
        }
        return try outcome!.get()
    }

    /// Whether the calling thread is inside ``withBus(_:)`` now.
    var holdsBus: Bool { owner.load(ordering: .acquiring) == Self.currentThreadID }

    /// An id of the calling thread, comparable with `owner` and the loop's thread.
    static var currentThreadID: UInt { UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))) }
}
