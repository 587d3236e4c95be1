import CSystemd

/// A signal received through ``BusConnection/subscribe(_:handler:)``.
package struct BusSignal: Sendable, Hashable {
    /// The sender's unique name.
    package var sender: String?
    /// The emitting object's path.
    package var path: String
    /// The interface name.
    package var interface: String
    /// The signal name.
    package var member: String
    /// The signal's values.
    package var arguments: BusValues

    /// Creates a signal by hand, e.g. to test a handler without a bus.
    package init(sender: String?, path: String, interface: String, member: String, arguments: BusValues) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}

/// A signal subscription; active while this value lives (or until ``cancel()``).
package final class BusSubscription: Sendable {
    private let slot: BusSlot

    init(slot: BusSlot) { self.slot = slot }

    /// Ends the subscription.
    package func cancel() { slot.cancel() }
}

/// A D-Bus match rule for signals, e.g. `type='signal',interface='org.relaunch.Permissions1',member='Changed'`.
package struct BusMatchRule: Sendable, Hashable, CustomStringConvertible {
    /// The rule text.
    package var description: String

    /// A rule matching signals by any of sender, path, interface, member and the first argument (a
    /// string): `arg0` lets the bus daemon deliver only the signals about one name, app or unit, so a
    /// subscriber is not woken for the others'.
    package init(
        sender: String? = nil, path: String? = nil, interface: String? = nil, member: String? = nil, arg0: String? = nil
    ) {
        let parts: [(String, String?)] = [
            ("type", "signal"), ("sender", sender), ("path", path), ("interface", interface), ("member", member),
            ("arg0", arg0),
        ]
        description = parts.compactMap { key, value in value.map { "\(key)='\($0)'" } }.joined(separator: ",")
    }

    /// A rule given as text.
    package init(rawValue: String) { description = rawValue }
}

extension BusConnection {
    /// Calls `handler` (on the loop thread) for every signal matching `rule`.
    ///
    /// Signals are delivered by ``run()`` or ``processPending(waitingUpTo:)``.
    /// - Returns: The subscription; keep it alive.
    package func subscribe(
        _ rule: BusMatchRule, handler: @escaping @Sendable (BusSignal) -> Void
    ) throws(BusError) -> BusSubscription {
        try subscribe(rule, waiting: true, handler: handler)
    }

    /// Like ``subscribe(_:handler:)``, without waiting for the bus daemon to answer AddMatch: the rule
    /// is in place before the daemon handles this connection's next message (it handles a connection's
    /// messages in order), so a call sent next is answered only once the rule applies. A rule the
    /// daemon refuses closes the connection (sd-bus's default), which its next call or wait reports.
    package func subscribeWithoutWaiting(
        _ rule: BusMatchRule, handler: @escaping @Sendable (BusSignal) -> Void
    ) throws(BusError) -> BusSubscription {
        try subscribe(rule, waiting: false, handler: handler)
    }

    private func subscribe(
        _ rule: BusMatchRule, waiting: Bool, handler: @escaping @Sendable (BusSignal) -> Void
    ) throws(BusError) -> BusSubscription {
        let context = Unmanaged.passRetained(SignalContext(handler)).toOpaque()
        let slot = try withBus { (bus) throws(BusError) -> OpaquePointer in
            var slot: OpaquePointer?
            let result = waiting
                ? sd_bus_add_match(bus, &slot, rule.description, signalDispatch, context)
                : sd_bus_add_match_async(bus, &slot, rule.description, signalDispatch, nil, context)
            if result < 0 {
                Unmanaged<SignalContext>.fromOpaque(context).release()
                throw BusError(errno: -result, operation: "add match \(rule)")
            }
            sd_bus_slot_set_destroy_callback(slot, signalRelease)
            return slot!
        }
        return BusSubscription(slot: BusSlot(connection: self, slot: slot))
    }
}

private final class SignalContext: Sendable {
    let handler: @Sendable (BusSignal) -> Void
    init(_ handler: @escaping @Sendable (BusSignal) -> Void) { self.handler = handler }
}

private let signalDispatch: sd_bus_message_handler_t = { message, context, _ in
    guard let message, let context else { return 0 }
    let subscription = Unmanaged<SignalContext>.fromOpaque(context).takeUnretainedValue()
    guard case .success(let values) = busRead(message) else { return 0 }
    func text(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
    subscription.handler(BusSignal(
        sender: text(sd_bus_message_get_sender(message)),
        path: text(sd_bus_message_get_path(message)) ?? "",
        interface: text(sd_bus_message_get_interface(message)) ?? "",
        member: text(sd_bus_message_get_member(message)) ?? "",
        arguments: BusValues(values)
    ))
    return 0
}

private let signalRelease: sd_bus_destroy_t = { context in
    if let context { Unmanaged<SignalContext>.fromOpaque(context).release() }
}
