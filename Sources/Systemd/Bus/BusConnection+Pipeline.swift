import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// One method call of a pipeline (``BusConnection/send(_:timeout:)``).
package struct BusMethodCallRequest: Sendable {
    /// The bus name (nil on a direct connection).
    package var destination: String?
    /// The object path.
    package var path: String
    /// The interface name.
    package var interface: String
    /// The method name.
    package var member: String
    /// The arguments in order; their types make the call's signature.
    package var arguments: [BusValue]

    /// A call of `interface.member` on `path` at `destination`.
    package init(destination: String?, path: String, interface: String, member: String, arguments: [BusValue] = []) {
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}

/// Method calls that are on their way; ``wait()`` collects their replies.
///
/// Every call was written before any reply is awaited, so their round trips overlap with each other
/// and with whatever the caller does before it waits.
package final class PendingBusCalls: @unchecked Sendable {
    // Invariant: `slots` and the pending replies are touched only inside the connection's `withBus`.
    private let connection: BusConnection
    private let operations: [String]
    private var slots: [OpaquePointer?]
    private let pending: [PendingReply]
    private var results: [Result<BusValues, BusError>?]

    fileprivate init(connection: BusConnection, operations: [String], slots: [OpaquePointer?],
                     pending: [PendingReply], results: [Result<BusValues, BusError>?]) {
        self.connection = connection
        self.operations = operations
        self.slots = slots
        self.pending = pending
        self.results = results
    }

    deinit {
        // A reply still outstanding must not reach a freed `PendingReply`: unref'ing its slot cancels it.
        connection.withBus { _ in
            for slot in slots { sd_bus_slot_unref(slot) }
            for reply in pending { sd_bus_message_unref(reply.message) }
        }
    }

    /// Waits for every reply (or its timeout) and returns them in the order the calls were sent.
    package func wait() -> [Result<BusValues, BusError>] {
        connection.withBus { bus in
            while let index = results.indices.first(where: { results[$0] == nil && pending[$0].message == nil }) {
                let processed = sd_bus_process(bus, nil)
                if processed < 0 {
                    results[index] = .failure(BusError(errno: -processed, operation: operations[index]))
                    continue
                }
                if processed > 0 { continue }
                let waited = sd_bus_wait(bus, UInt64.max)
                if waited < 0 && waited != -EINTR {
                    results[index] = .failure(BusError(errno: -waited, operation: operations[index]))
                }
            }
            for index in results.indices where results[index] == nil {
                results[index] = Self.result(of: pending[index].message!, operation: operations[index])
            }
        }
        return results.map { $0! }
    }

    /// The values of a method return, or the error an error reply (or sd-bus's timeout) carries.
    private static func result(of reply: OpaquePointer, operation: String) -> Result<BusValues, BusError> {
        if let error = sd_bus_message_get_error(reply), sd_bus_error_is_set(error) != 0 {
            return .failure(BusError(error, result: -(sd_bus_message_get_errno(reply))))
        }
        return busRead(reply).map(BusValues.init)
    }
}

/// Where one call's reply lands; its address is the sd-bus callback's userdata.
private final class PendingReply {
    var message: OpaquePointer?
}

private let replyArrived: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    let pending = Unmanaged<PendingReply>.fromOpaque(userdata).takeUnretainedValue()
    pending.message = sd_bus_message_ref(message)
    return 1
}

extension BusConnection {
    /// Sends every call at once and returns before any reply: ``PendingBusCalls/wait()`` collects them.
    ///
    /// For calls that do not depend on each other (an app's launch asks permissiond two things): one
    /// round trip's wait instead of one per call.
    /// - Parameters:
    ///   - calls: The calls, sent in this order.
    ///   - timeout: How long each may take; nil for sd-bus's default (25 s).
    /// - Returns: The calls in flight; a call that could not be sent already holds its error.
    package func send(_ calls: [BusMethodCallRequest], timeout: Duration? = nil) -> PendingBusCalls {
        let usec = timeout.map { UInt64(max(0, $0 / .microseconds(1))) } ?? 0
        let pending = calls.map { _ in PendingReply() }
        var slots: [OpaquePointer?] = []
        var results: [Result<BusValues, BusError>?] = []
        let operations = calls.map { "\($0.interface).\($0.member)" }
        withBus { bus in
            for (index, call) in calls.enumerated() {
                var message: OpaquePointer?
                var result = sd_bus_message_new_method_call(
                    bus, &message, call.destination, call.path, call.interface, call.member)
                if result >= 0 { result = busAppend(message!, call.arguments) }
                var slot: OpaquePointer?
                if result >= 0 {
                    let userdata = Unmanaged.passUnretained(pending[index]).toOpaque()
                    result = sd_bus_call_async(bus, &slot, message, replyArrived, userdata, usec)
                }
                sd_bus_message_unref(message)
                slots.append(slot)
                results.append(result < 0 ? .failure(BusError(errno: -result, operation: operations[index])) : nil)
            }
        }
        return PendingBusCalls(connection: self, operations: operations, slots: slots, pending: pending, results: results)
    }
}
