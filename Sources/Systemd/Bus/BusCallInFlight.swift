import CSystemd
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One method call sent with `sd_bus_call_async` and completed by the connection's loop.
///
/// It owns the call's sd-bus slot (the only reference) and answers its waiter exactly once: with the
/// reply, the error reply, sd-bus's NoReply at the timeout or when the connection closed, or the
/// error of whoever gave up on it first (the task was cancelled, the loop ended). Whoever answers
/// first wins; the slot is released with `sd_bus_slot_unref` by the reply callback or by the one
/// who gave up, so a reply that comes later finds no callback and is dropped by sd-bus.
final class BusCallInFlight: @unchecked Sendable {
    // Invariant: `slot` is touched only inside the connection's `withBus` (under its lock or on the
    // loop thread while it processes); `state` only through its Mutex.
    private var slot: OpaquePointer?
    private let state = Mutex<State>(State())
    /// `Interface.Member`, for error messages.
    let operation: String
    /// Counts the slots this connection holds for calls (``BusConnection/callSlotsHeld``).
    let loop: RunLoopState

    private struct State {
        var waiter: (@Sendable (Result<BusValues, BusError>) -> Void)?
        var result: Result<BusValues, BusError>?
    }

    init(operation: String, loop: RunLoopState) {
        self.operation = operation
        self.loop = loop
    }

    /// The answer, once there is one.
    var result: Result<BusValues, BusError>? { state.withLock { $0.result } }

    /// Sets who is told the answer; told at once if the call was already answered (e.g. cancelled
    /// before it was sent).
    func attach(_ waiter: @escaping @Sendable (Result<BusValues, BusError>) -> Void) {
        let early: Result<BusValues, BusError>? = state.withLock { state in
            if let result = state.result { return result }
            state.waiter = waiter
            return nil
        }
        if let early { waiter(early) }
    }

    /// Answers the call with `result` unless it was answered already.
    /// - Returns: Whether this was the answer (false: an earlier one won).
    @discardableResult
    func finish(_ result: Result<BusValues, BusError>) -> Bool {
        let (first, waiter) = state.withLock { state -> (Bool, (@Sendable (Result<BusValues, BusError>) -> Void)?) in
            guard state.result == nil else { return (false, nil) }
            state.result = result
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        if first { loop.unregister(self) }
        waiter?(result)
        return first
    }

    /// Writes `message` with `sd_bus_call_async` (inside `withBus`); nothing is sent when the call
    /// was already answered. Returns 0 or `-errno`.
    func send(_ bus: OpaquePointer, _ message: OpaquePointer, timeoutMicroseconds: UInt64) -> Int32 {
        guard result == nil else { return 0 }
        // The slot's userdata holds one reference to self; the slot's destroy callback gives it back.
        let userdata = Unmanaged.passRetained(self).toOpaque()
        var slot: OpaquePointer?
        loop.callSlots.add(1, ordering: .relaxed)
        let sent = sd_bus_call_async(bus, &slot, message, busCallReplied, userdata, timeoutMicroseconds)
        guard sent >= 0, let slot else {
            loop.callSlots.subtract(1, ordering: .relaxed)
            Unmanaged<BusCallInFlight>.fromOpaque(userdata).release()
            return sent < 0 ? sent : -EINVAL
        }
        sd_bus_slot_set_destroy_callback(slot, busCallSlotFreed)
        self.slot = slot
        return 0
    }

    /// Releases the slot (inside `withBus`): sd-bus forgets the call and drops a later reply.
    func releaseSlot() {
        guard let slot else { return }
        self.slot = nil
        sd_bus_slot_unref(slot)
    }
}

/// The reply, an error reply, or sd-bus's own NoReply (timeout, connection closed): runs on the loop
/// thread inside `sd_bus_process`, so inside `withBus`. sd-bus holds its own reference to the slot
/// while this runs, so releasing ours here is safe.
private let busCallReplied: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    let call = Unmanaged<BusCallInFlight>.fromOpaque(userdata).takeUnretainedValue()
    if let error = sd_bus_message_get_error(message), sd_bus_error_is_set(error) != 0 {
        call.finish(.failure(BusError(error, result: -(sd_bus_message_get_errno(message)))))
    } else {
        call.finish(busRead(message).map(BusValues.init))
    }
    call.releaseSlot()
    return 1
}

/// The slot was freed: gives back the slot's reference. The call was answered by then (a slot is
/// freed only by `releaseSlot`, after an answer); the fallback covers anything sd-bus might do.
private let busCallSlotFreed: sd_bus_destroy_t = { userdata in
    guard let userdata else { return }
    let call = Unmanaged<BusCallInFlight>.fromOpaque(userdata).takeRetainedValue()
    call.loop.callSlots.subtract(1, ordering: .relaxed)
    call.finish(.failure(BusError(
        name: BusError.disconnectedName, message: "\(call.operation): the connection closed before the reply came")))
}
