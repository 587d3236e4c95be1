import CSDBus
import CSystemd
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One incoming method call, decoded before the handler runs (safe to keep).
package struct BusMethodCall: Sendable {
    /// The interface exported.
    package var interface: BusInterface
    /// The method name, e.g. `Get`.
    package var member: String
    /// The object path called.
    package var path: String
    /// The caller's unique bus name (nil on a direct connection).
    package var sender: String?
    /// The caller's effective uid, or nil if the bus could not tell (treat as unprivileged).
    package var senderUID: UInt32?
    /// The arguments, already checked by sd-bus against the method's input signature.
    package var arguments: BusValues
    /// Whether the caller allows interactive authorization (`busctl --allow-interactive-authorization`):
    /// a polkit check may then ask the user to authenticate.
    package var allowsInteractiveAuthorization: Bool

    /// Creates a call by hand, e.g. to test a handler without a bus.
    package init(
        interface: BusInterface, member: String, path: String? = nil, sender: String? = nil,
        senderUID: UInt32?, arguments: BusValues = [], allowsInteractiveAuthorization: Bool = false
    ) {
        self.interface = interface
        self.member = member
        self.path = path ?? interface.objectPath
        self.sender = sender
        self.senderUID = senderUID
        self.arguments = arguments
        self.allowsInteractiveAuthorization = allowsInteractiveAuthorization
    }

    /// Whether the caller is root (uid 0).
    package var isFromRoot: Bool { senderUID == 0 }

    /// Throws AccessDenied unless the caller is root.
    package func requireRoot(_ message: String? = nil) throws(BusError) {
        guard isFromRoot else {
            throw .accessDenied(message ?? "\(interface.name).\(member) may only be called by root (uid 0).")
        }
    }
}

/// The values a method handler returns; their signature must match the method's output signature.
package struct BusReply: Sendable, Hashable {
    /// The reply values.
    package var values: [BusValue]

    /// A reply with `values`.
    package init(_ values: [BusValue]) { self.values = values }

    /// A reply with `values`.
    package init(_ values: BusValue...) { self.values = values }

    /// No values (for methods without output).
    package static let empty = BusReply([])

    /// One `s`.
    package static func string(_ text: String) -> BusReply { BusReply(.string(text)) }
}

/// A method handler: decides by `call.member`, returns a reply or throws the D-Bus error to send.
package typealias BusMethodHandler = @Sendable (BusMethodCall) throws(BusError) -> BusReply

/// A method handler that may answer later: it returns the reply (or throws) to answer now, or
/// returns nil after handing `pending` to work that answers through it from any thread.
package typealias BusDeferringMethodHandler =
    @Sendable (BusMethodCall, BusPendingReply) throws(BusError) -> BusReply?

/// A method call whose reply is still owed: ``send(_:)`` answers it once, from any thread.
///
/// A call that is dropped unanswered is answered with `org.freedesktop.DBus.Error.Failed`, so a
/// caller never waits for its timeout because of a lost reply.
package final class BusPendingReply: @unchecked Sendable {
    // Invariant: `message` is only touched inside `connection.withBus`; `answered` guards one answer.
    private let connection: BusConnection
    private let message: OpaquePointer
    private let interface: BusInterface
    private let member: String
    private let answered = Atomic<Bool>(false)

    init(connection: BusConnection, message: OpaquePointer, interface: BusInterface, member: String) {
        self.connection = connection
        self.message = sd_bus_message_ref(message)
        self.interface = interface
        self.member = member
    }

    deinit {
        if !answered.load(ordering: .acquiring) {
            send(.failure(.failed("\(interface.name).\(member) was dropped without an answer (a bug)")))
        }
        connection.withBus { _ in _ = sd_bus_message_unref(message) }
    }

    /// Whether the call is still waiting for its answer.
    package var isPending: Bool { !answered.load(ordering: .acquiring) }

    /// Sends the reply or the error; later calls do nothing. A failure to send (the caller or the
    /// bus went away) is not reported: there is nobody left to tell.
    package func send(_ result: Result<BusReply, BusError>) {
        guard answered.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        connection.withBus { _ in
            _ = BusPendingReply.answer(message, interface: interface, member: member, with: result)
        }
    }

    /// Sends `result` as the answer to `m` (on the connection's thread, under its lock); returns
    /// what an sd-bus method handler returns.
    static func answer(
        _ m: OpaquePointer, interface: BusInterface, member: String, with result: Result<BusReply, BusError>
    ) -> Int32 {
        var values: [BusValue] = []
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        switch result {
        case .failure(let failure):
            _ = sd_bus_error_set(&error, failure.name, failure.message)
        case .success(let reply):
            let expected = interface.outputSignature(of: member) ?? ""
            let actual = reply.values.map(\.signature).joined()
            if expected == actual {
                values = reply.values
            } else {
                _ = sd_bus_error_set(
                    &error, BusError.failedName,
                    "\(interface.name).\(member) produced a reply of signature '\(actual)', expected '\(expected)'.")
            }
        }
        if sd_bus_error_is_set(&error) != 0 {
            return sd_bus_reply_method_error(m, &error)
        }
        var message: OpaquePointer?
        var status = sd_bus_message_new_method_return(m, &message)
        if status < 0 { return status }
        defer { sd_bus_message_unref(message) }
        status = busAppend(message!, values)
        if status < 0 { return status }
        status = sd_bus_send(nil, message, nil)
        return status < 0 ? status : 1
    }
}

/// An object exported on a connection; it stays exported while this value lives (or until ``cancel()``).
package final class BusObject: Sendable {
    /// What is exported.
    package let interface: BusInterface
    /// Where it is exported.
    package let path: String
    private let slot: BusSlot

    init(interface: BusInterface, path: String, slot: BusSlot) {
        self.interface = interface
        self.path = path
        self.slot = slot
    }

    /// Stops exporting the object.
    package func cancel() { slot.cancel() }
}

extension BusConnection {
    /// Exports `interface`'s vtable at `path`; every method call goes to `handler` on the loop thread.
    ///
    /// Needs a running loop (``run()``). sd-bus answers introspection and rejects unknown members and
    /// wrong argument types itself; replies whose signature differs from the vtable become
    /// `org.freedesktop.DBus.Error.Failed` (a bug in the handler).
    /// - Parameters:
    ///   - interface: Which vtable.
    ///   - path: The object path; defaults to the interface's conventional path.
    ///   - handler: The dispatcher.
    /// - Returns: The export; keep it alive.
    package func export(
        _ interface: BusInterface, at path: String? = nil, handler: @escaping BusMethodHandler
    ) throws(BusError) -> BusObject {
        try export(interface, at: path) { (call, _) throws(BusError) -> BusReply? in try handler(call) }
    }

    /// Exports `interface` at `path` with one handler per method, each of which may answer later.
    ///
    /// - Throws: ``BusError`` `InvalidArgs` when a method of the description has no handler or a
    ///   handler names no method (a server out of step with its interface), before anything is exported.
    package func export(
        _ interface: BusInterface, at path: String? = nil,
        resolvingSenderUID: @escaping @Sendable (String) -> Bool = { _ in true },
        handlers: [String: BusDeferringMethodHandler]
    ) throws(BusError) -> BusObject {
        let methods = Set(interface.methods.map(\.name))
        let missing = methods.subtracting(handlers.keys).sorted()
        let extra = Set(handlers.keys).subtracting(methods).sorted()
        guard missing.isEmpty, extra.isEmpty else {
            throw .invalidArgs(
                "the handlers of \(interface.name) do not match its description: "
                    + "missing \(missing.joined(separator: ", ")), unknown \(extra.joined(separator: ", "))")
        }
        return try export(interface, at: path, resolvingSenderUID: resolvingSenderUID) {
            (call, pending) throws(BusError) -> BusReply? in
            guard let handler = handlers[call.member] else {
                throw .failed(name: BusError.unknownMethodName, "\(interface.name) has no method \(call.member)")
            }
            return try handler(call, pending)
        }
    }

    /// Exports `interface` at `path` with a handler that may answer later (``BusPendingReply``).
    ///
    /// - Parameters:
    ///   - interface: Which vtable.
    ///   - path: The object path; defaults to the interface's conventional path.
    ///   - resolvingSenderUID: Which members need ``BusMethodCall/senderUID``. Finding it out is a
    ///     round trip to the bus on the loop thread, so members any caller may call (reads) should
    ///     skip it; the default resolves it for every member.
    ///   - handler: The dispatcher.
    /// - Returns: The export; keep it alive.
    package func export(
        _ interface: BusInterface, at path: String? = nil,
        resolvingSenderUID: @escaping @Sendable (String) -> Bool = { _ in true },
        handler: @escaping BusDeferringMethodHandler
    ) throws(BusError) -> BusObject {
        let path = path ?? interface.objectPath
        let context = Unmanaged.passRetained(
            ExportContext(connection: self, interface: interface, resolvingSenderUID: resolvingSenderUID, handler: handler)
        ).toOpaque()
        let slot = try withBus { (bus) throws(BusError) -> OpaquePointer in
            var slot: OpaquePointer?
            let result = interface.withMembers { members in
                csdbus_add_object(
                    bus, &slot, path, interface.name, members.baseAddress, members.count, exportDispatch,
                    exportRelease, context)
            }
            if result < 0 { throw BusError(errno: -result, operation: "export \(interface.name) at \(path)") }
            return slot!
        }
        return BusObject(interface: interface, path: path, slot: BusSlot(connection: self, slot: slot))
    }
}

/// Owns an `sd_bus_slot`, unref'd under the connection's lock.
final class BusSlot: @unchecked Sendable {
    // Invariant: `slot` is only touched inside `connection.withBus`.
    private let connection: BusConnection
    private var slot: OpaquePointer?

    init(connection: BusConnection, slot: OpaquePointer) {
        self.connection = connection
        self.slot = slot
    }

    func cancel() {
        connection.withBus { _ in
            if let slot { sd_bus_slot_unref(slot) }
            slot = nil
        }
    }

    deinit { cancel() }
}

private final class ExportContext: Sendable {
    // Unowned: the connection owns the slot that owns this context.
    unowned let connection: BusConnection
    let interface: BusInterface
    let resolvingSenderUID: @Sendable (String) -> Bool
    let handler: BusDeferringMethodHandler
    /// The uids the bus daemon gave for senders: a unique name is never given to another connection
    /// while the bus runs, so each sender costs one round trip, not one per call (a stranger who
    /// calls in a flood would otherwise hold the serving thread in a round trip per call). Emptied
    /// past ``knownSenderCapacity`` names; a new connection (after a reconnect) has a new context.
    private let knownSenders = Mutex<[String: UInt32]>([:])
    static let knownSenderCapacity = 4096

    init(
        connection: BusConnection, interface: BusInterface,
        resolvingSenderUID: @escaping @Sendable (String) -> Bool, handler: @escaping BusDeferringMethodHandler
    ) {
        self.connection = connection
        self.interface = interface
        self.resolvingSenderUID = resolvingSenderUID
        self.handler = handler
    }

    func dispatch(_ m: OpaquePointer, _ errorOut: UnsafeMutablePointer<sd_bus_error>) -> Int32 {
        let member = sd_bus_message_get_member(m).map { String(cString: $0) } ?? ""
        let outcome: Result<BusReply, BusError>
        switch busRead(m) {
        case .failure(let error):
            outcome = .failure(error)
        case .success(let values):
            let call = BusMethodCall(
                interface: interface, member: member,
                path: sd_bus_message_get_path(m).map { String(cString: $0) },
                sender: sd_bus_message_get_sender(m).map { String(cString: $0) },
                senderUID: resolvingSenderUID(member) ? senderUID(m) : nil, arguments: BusValues(values),
                allowsInteractiveAuthorization: sd_bus_message_get_allow_interactive_authorization(m) > 0
            )
            let pending = BusPendingReply(connection: connection, message: m, interface: interface, member: member)
            do throws(BusError) {
                guard let reply = try handler(call, pending) else { return 1 }  // answered later
                outcome = .success(reply)
            } catch {
                outcome = .failure(error)
            }
            pending.send(outcome)
            return 1
        }
        if case .failure(let error) = outcome {
            return sd_bus_error_set(errorOut, error.name, error.message)
        }
        return 1
    }

    /// The sender's uid: remembered, or asked of the bus daemon (and then remembered).
    private func senderUID(_ m: OpaquePointer) -> UInt32? {
        guard let sender = sd_bus_message_get_sender(m).map({ String(cString: $0) }) else { return Self.senderUID(m) }
        if let uid = knownSenders.withLock({ $0[sender] }) { return uid }
        guard let uid = Self.senderUID(m) else { return nil }
        knownSenders.withLock { known in
            if known.count >= Self.knownSenderCapacity { known.removeAll() }
            known[sender] = uid
        }
        return uid
    }

    private static func senderUID(_ m: OpaquePointer) -> UInt32? {
        var creds: OpaquePointer?
        let mask = UInt64(SD_BUS_CREDS_EUID) | UInt64(SD_BUS_CREDS_AUGMENT)
        guard sd_bus_query_sender_creds(m, mask, &creds) >= 0, let creds else { return nil }
        defer { sd_bus_creds_unref(creds) }
        var uid: uid_t = 0
        return sd_bus_creds_get_euid(creds, &uid) >= 0 ? uid : nil
    }
}

private let exportDispatch: csdbus_dispatch_fn = { message, context, errorOut in
    let export = Unmanaged<ExportContext>.fromOpaque(context!).takeUnretainedValue()
    return export.dispatch(message!, errorOut!)
}

private let exportRelease: csdbus_release_fn = { context in
    Unmanaged<ExportContext>.fromOpaque(context!).release()
}

extension BusInterface {
    /// Calls `body` with the description as CSDBus takes it; the C strings live for the call only
    /// (CSDBus copies them).
    fileprivate func withMembers<R>(_ body: (UnsafeBufferPointer<csdbus_member>) -> R) -> R {
        // Every string the members point at, kept alive in one place until `body` returns.
        var storage: [[CChar]] = []
        var rows: [(kind: CChar, member: Int, signature: Int, result: Int, names: Int, length: Int)] = []
        func keep(_ bytes: [CChar]) -> Int {
            storage.append(bytes)
            return storage.count - 1
        }
        func names(_ arguments: [Argument]) -> [CChar] {
            arguments.isEmpty ? [0] : arguments.flatMap { Array($0.name.utf8CString) }  // each NUL-terminated
        }
        func length(_ arguments: [Argument]) -> Int {
            arguments.reduce(0) { $0 + $1.name.utf8.count + 1 }
        }
        for method in methods {
            rows.append((
                CChar(UInt8(ascii: "M")), keep(Array(method.name.utf8CString)), keep(Array(method.inputSignature.utf8CString)),
                keep(Array(method.outputSignature.utf8CString)), keep(names(method.inputs + method.outputs)),
                length(method.inputs + method.outputs)
            ))
        }
        for signal in signals {
            rows.append((
                CChar(UInt8(ascii: "S")), keep(Array(signal.name.utf8CString)), keep(Array(signal.signature.utf8CString)),
                keep([0]), keep(names(signal.arguments)), length(signal.arguments)
            ))
        }
        return withPointers(storage[...]) { pointers in
            let members = rows.map { row in
                csdbus_member(
                    kind: row.kind, member: pointers[row.member], signature: pointers[row.signature],
                    result: pointers[row.result], names: pointers[row.names], names_length: row.length)
            }
            return members.withUnsafeBufferPointer(body)
        }
    }
}

/// Calls `body` with a stable pointer to each array of `arrays`, valid for the call.
private func withPointers<R>(
    _ arrays: ArraySlice<[CChar]>, _ pointers: [UnsafePointer<CChar>] = [],
    _ body: ([UnsafePointer<CChar>]) -> R
) -> R {
    guard let first = arrays.first else { return body(pointers) }
    return first.withUnsafeBufferPointer { buffer in
        withPointers(arrays.dropFirst(), pointers + [buffer.baseAddress!], body)
    }
}
