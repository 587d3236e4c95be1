import CSDBus
import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// One incoming method call, decoded before the handler runs (safe to keep).
public struct BusMethodCall: Sendable {
    /// The interface exported.
    public var interface: BusInterface
    /// The method name, e.g. `Get`.
    public var member: String
    /// The object path called.
    public var path: String
    /// The caller's unique bus name (nil on a direct connection).
    public var sender: String?
    /// The caller's effective uid, or nil if the bus could not tell (treat as unprivileged).
    public var senderUID: UInt32?
    /// The arguments, already checked by sd-bus against the method's input signature.
    public var arguments: BusValues

    /// Creates a call by hand, e.g. to test a handler without a bus.
    public init(
        interface: BusInterface, member: String, path: String? = nil, sender: String? = nil,
        senderUID: UInt32?, arguments: BusValues = []
    ) {
        self.interface = interface
        self.member = member
        self.path = path ?? interface.objectPath
        self.sender = sender
        self.senderUID = senderUID
        self.arguments = arguments
    }

    /// Whether the caller is root (uid 0).
    public var isFromRoot: Bool { senderUID == 0 }

    /// Throws AccessDenied unless the caller is root.
    public func requireRoot(_ message: String? = nil) throws(BusError) {
        guard isFromRoot else {
            throw .accessDenied(message ?? "\(interface.name).\(member) may only be called by root (uid 0).")
        }
    }
}

/// The values a method handler returns; their signature must match the method's output signature.
public struct BusReply: Sendable, Hashable {
    /// The reply values.
    public var values: [BusValue]

    /// A reply with `values`.
    public init(_ values: [BusValue]) { self.values = values }

    /// A reply with `values`.
    public init(_ values: BusValue...) { self.values = values }

    /// No values (for methods without output).
    public static let empty = BusReply([])

    /// One `s`.
    public static func string(_ text: String) -> BusReply { BusReply(.string(text)) }
}

/// A method handler: decides by `call.member`, returns a reply or throws the D-Bus error to send.
public typealias BusMethodHandler = @Sendable (BusMethodCall) throws(BusError) -> BusReply

/// An object exported on a connection; it stays exported while this value lives (or until ``cancel()``).
public final class BusObject: Sendable {
    /// What is exported.
    public let interface: BusInterface
    /// Where it is exported.
    public let path: String
    private let slot: BusSlot

    init(interface: BusInterface, path: String, slot: BusSlot) {
        self.interface = interface
        self.path = path
        self.slot = slot
    }

    /// Stops exporting the object.
    public func cancel() { slot.cancel() }
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
    public func export(
        _ interface: BusInterface, at path: String? = nil, handler: @escaping BusMethodHandler
    ) throws(BusError) -> BusObject {
        let path = path ?? interface.objectPath
        let context = Unmanaged.passRetained(ExportContext(interface: interface, handler: handler)).toOpaque()
        let slot = try withBus { (bus) throws(BusError) -> OpaquePointer in
            var slot: OpaquePointer?
            let result = csdbus_add_object(bus, &slot, path, interface.raw, exportDispatch, exportRelease, context)
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
    let interface: BusInterface
    let handler: BusMethodHandler

    init(interface: BusInterface, handler: @escaping BusMethodHandler) {
        self.interface = interface
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
                senderUID: Self.senderUID(m), arguments: BusValues(values)
            )
            do throws(BusError) {
                outcome = .success(try handler(call))
            } catch {
                outcome = .failure(error)
            }
        }
        switch outcome {
        case .failure(let error):
            return sd_bus_error_set(errorOut, error.name, error.message)
        case .success(let reply):
            let expected = interface.outputSignature(of: member) ?? ""
            let actual = reply.values.map(\.signature).joined()
            guard expected == actual else {
                return sd_bus_error_set(errorOut, BusError.failedName,
                                        "\(interface.name).\(member) produced a reply of signature '\(actual)', expected '\(expected)'.")
            }
            var message: OpaquePointer?
            var result = sd_bus_message_new_method_return(m, &message)
            if result < 0 { return result }
            defer { sd_bus_message_unref(message) }
            result = busAppend(message!, reply.values)
            if result < 0 { return result }
            result = sd_bus_send(nil, message, nil)
            return result < 0 ? result : 1
        }
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
