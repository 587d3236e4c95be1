import CSystemd
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

extension BusConnection {
    /// Calls a method and suspends until its reply, without holding the connection while it waits.
    ///
    /// The call is written with `sd_bus_call_async`; the connection's loop (``run(heartbeat:)`` or
    /// ``startLoopThread(heartbeat:onExit:)``) completes it when the reply, an error or the timeout
    /// comes. So a peer that never answers delays only its own callers: other calls, signals and
    /// method handlers on the same connection go on, and so does the loop's heartbeat.
    ///
    /// - Parameters:
    ///   - destination: The bus name (nil on a direct connection).
    ///   - path: The object path.
    ///   - interface: The interface name.
    ///   - member: The method name.
    ///   - arguments: The arguments in order; their types make the call's signature.
    ///   - timeout: How long to wait; nil for sd-bus's default (25 s).
    ///   - interactive: Let the peer ask the user to authenticate (polkit) while it answers.
    /// - Returns: The reply's values.
    /// - Throws: ``BusError``: the error reply, NoReply on timeout, Disconnected when the connection
    ///   closed or its loop stopped before the reply came, or a local failure.
    @discardableResult
    public func callAsync(
        destination: String?, path: String, interface: String, member: String,
        arguments: [BusValue] = [], timeout: Duration? = nil, interactive: Bool = false
    ) async throws(BusError) -> BusValues {
        let operation = "\(interface).\(member)"
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<BusValues, BusError>, Never>) in
            let box = AsyncReply(continuation, operation: operation, loop: loop)
            // Registered before the loop is looked at: a loop that ends from here on fails it (below).
            loop.register(box)
            guard hasLoop else {
                box.finish(.failure(BusError(
                    name: BusError.disconnectedName, message: "\(operation): the connection has no running loop")))
                return
            }
            let sent: Int32 = withBus { bus in
                var message: OpaquePointer?
                var result = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
                guard result >= 0 else { return result }
                defer { sd_bus_message_unref(message) }
                if interactive { _ = sd_bus_message_set_allow_interactive_authorization(message, 1) }
                result = busAppend(message!, arguments)
                guard result >= 0 else { return result }
                let usec = timeout.map { UInt64(max(1, $0 / .microseconds(1))) } ?? 0
                var slot: OpaquePointer?
                let userdata = Unmanaged.passRetained(box).toOpaque()
                result = sd_bus_call_async(bus, &slot, message, asyncReplyArrived, userdata, usec)
                guard result >= 0, let slot else {
                    Unmanaged<AsyncReply>.fromOpaque(userdata).release()
                    return result < 0 ? result : -EINVAL
                }
                // The bus owns the slot from here; the destroy callback runs when the reply came,
                // the call timed out, or the connection closed: it answers and frees the box.
                sd_bus_slot_set_destroy_callback(slot, asyncReplyReleased)
                _ = sd_bus_slot_set_floating(slot, 1)
                sd_bus_slot_unref(slot)
                return 0
            }
            if sent < 0 { box.finish(.failure(BusError(errno: -sent, operation: operation))) }
        }
        return try result.get()
    }
}

/// Where one asynchronous call's answer goes; its address is the sd-bus slot's userdata.
final class AsyncReply: Sendable {
    private let state: Mutex<(CheckedContinuation<Result<BusValues, BusError>, Never>?, Result<BusValues, BusError>?)>
    let operation: String
    private let loop: RunLoopState

    init(_ continuation: CheckedContinuation<Result<BusValues, BusError>, Never>, operation: String, loop: RunLoopState) {
        state = Mutex((continuation, nil))
        self.operation = operation
        self.loop = loop
    }

    /// Keeps the reply's result (the first one wins) for ``finish(_:)``.
    func store(_ result: Result<BusValues, BusError>) {
        state.withLock { if $0.1 == nil { $0.1 = result } }
    }

    /// Resumes the caller once: with `fallback` unless a result was stored.
    func finish(_ fallback: Result<BusValues, BusError>) {
        let (continuation, result) = state.withLock { state in
            defer { state.0 = nil }
            return (state.0, state.1 ?? fallback)
        }
        guard let continuation else { return }
        loop.unregister(self)
        continuation.resume(returning: result)
    }
}

private let asyncReplyArrived: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    let reply = Unmanaged<AsyncReply>.fromOpaque(userdata).takeUnretainedValue()
    if let error = sd_bus_message_get_error(message), sd_bus_error_is_set(error) != 0 {
        reply.store(.failure(BusError(error, result: -(sd_bus_message_get_errno(message)))))
    } else {
        reply.store(busRead(message).map(BusValues.init))
    }
    return 1
}

private let asyncReplyReleased: sd_bus_destroy_t = { userdata in
    guard let userdata else { return }
    let reply = Unmanaged<AsyncReply>.fromOpaque(userdata).takeRetainedValue()
    reply.finish(.failure(BusError(
        name: BusError.disconnectedName, message: "\(reply.operation): the connection closed before the reply came")))
}
