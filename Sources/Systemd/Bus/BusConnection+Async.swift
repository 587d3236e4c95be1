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
    /// method handlers on the same connection go on, and so does the loop's heartbeat. The
    /// connection's lock is held only while the call is written, never across the round trip.
    ///
    /// Cancelling the calling task ends the call at once with an `ECANCELED` error
    /// (``BusError/isCancelled``) and releases it in sd-bus: a reply that comes later is dropped.
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
    /// - Throws: ``BusError``: the error reply, NoReply on timeout or when the connection closed,
    ///   Disconnected when the connection has no loop or its loop stopped before the reply came,
    ///   ECANCELED when the task was cancelled, or a local failure.
    @discardableResult
    package func callAsync(
        destination: String?, path: String, interface: String, member: String,
        arguments: [BusValue] = [], timeout: Duration? = nil, interactive: Bool = false
    ) async throws(BusError) -> BusValues {
        let call = BusCallInFlight(operation: "\(interface).\(member)", loop: loop)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<BusValues, BusError>, Never>) in
                call.attach { continuation.resume(returning: $0) }
                start(call, destination: destination, path: path, interface: interface, member: member,
                      arguments: arguments, timeout: timeout, interactive: interactive)
            }
        } onCancel: {
            giveUp(call, BusError(errno: ECANCELED, operation: "\(call.operation): the calling task was cancelled"))
        }
        return try result.get()
    }

    /// A synchronous call completed by the running loop: the calling thread waits on an eventfd of
    /// its own, holding nothing, while the loop goes on serving everyone else.
    func callThroughLoop(
        destination: String?, path: String, interface: String, member: String, arguments: [BusValue], timeout: Duration?
    ) throws(BusError) -> BusValues {
        let call = BusCallInFlight(operation: "\(interface).\(member)", loop: loop)
        let done = csystemd_eventfd(0)
        guard done >= 0 else { throw BusError(errno: errno, operation: "\(call.operation): eventfd") }
        defer { close(done) }
        call.attach { _ in
            var one: UInt64 = 1
            _ = write(done, &one, 8)
        }
        start(call, destination: destination, path: path, interface: interface, member: member,
              arguments: arguments, timeout: timeout, interactive: false)
        // Bounded by the call's own timeout: the loop answers it then, or fails it when it ends.
        var ready = pollfd(fd: done, events: Int16(POLLIN), revents: 0)
        while call.result == nil {
            _ = poll(&ready, 1, -1)
        }
        return try call.result!.get()
    }

    /// Whether a synchronous call from this thread should go through the loop: a loop runs, and
    /// this thread is neither that loop nor inside `withBus` (either would wait for itself).
    var callsGoThroughLoop: Bool {
        let me = Self.currentThreadID
        return loop.isRunning.load(ordering: .acquiring) && loop.loopThread.load(ordering: .acquiring) != me
            && !holdsBus
    }

    /// Registers `call` with the loop and writes it; answers it with the failure if it cannot be sent.
    private func start(
        _ call: BusCallInFlight, destination: String?, path: String, interface: String, member: String,
        arguments: [BusValue], timeout: Duration?, interactive: Bool
    ) {
        // Registered before the loop is looked at: a loop that ends from here on fails it.
        loop.register(call)
        if call.result != nil {  // given up before it started (its task was already cancelled)
            loop.unregister(call)
            return
        }
        guard hasLoop else {
            giveUp(call, BusError(name: BusError.disconnectedName, message: "\(call.operation): the connection has no running loop"))
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
            return call.send(bus, message!, timeoutMicroseconds: usec)
        }
        if sent < 0 { giveUp(call, BusError(errno: -sent, operation: call.operation)) }
    }

    /// Answers `call` with `error` (unless it was answered already) and releases its slot.
    func giveUp(_ call: BusCallInFlight, _ error: BusError) {
        call.finish(.failure(error))
        withBus { _ in call.releaseSlot() }
    }

    /// Fails every call the loop was to complete: the loop has ended (or will not run).
    func abandonWaitingCalls() {
        for call in loop.takeWaitingCalls() {
            giveUp(call, BusError(
                name: BusError.disconnectedName, message: "\(call.operation): the connection's loop ended before the reply came"))
        }
    }

    /// The loop announced by ``RunLoopState/expectLoop()`` will not run after all.
    func loopWillNotRun() {
        loop.isStarting.store(false, ordering: .releasing)
        abandonWaitingCalls()
    }

    /// How many calls wait for this connection's loop (for tests: a finished or abandoned call is gone).
    var callsInFlight: Int { loop.waitingCount }

    /// How many sd-bus slots of calls are not released yet (for tests: 0 once every call ended).
    var callSlotsHeld: Int { loop.callSlots.load(ordering: .relaxed) }
}
