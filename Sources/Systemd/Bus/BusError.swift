import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// A D-Bus error: a name such as `org.freedesktop.DBus.Error.AccessDenied` and a human message.
///
/// Handlers throw it to send an error reply; client calls throw it for error replies and for local
/// failures (then named `System.Error.E…` by sd-bus, with ``errno`` set).
package struct BusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The D-Bus error name.
    package var name: String
    /// The human-readable message.
    package var message: String
    /// The errno sd-bus associates with the error, if any.
    package var errno: Int32?

    /// Creates an error with an explicit name.
    package init(name: String, message: String, errno: Int32? = nil) {
        self.name = name
        self.message = message
        self.errno = errno
    }

    /// `org.freedesktop.DBus.Error.AccessDenied`
    package static let accessDeniedName = "org.freedesktop.DBus.Error.AccessDenied"
    /// `org.freedesktop.DBus.Error.InvalidArgs`
    package static let invalidArgsName = "org.freedesktop.DBus.Error.InvalidArgs"
    /// `org.freedesktop.DBus.Error.Failed`
    package static let failedName = "org.freedesktop.DBus.Error.Failed"
    /// `org.freedesktop.DBus.Error.ServiceUnknown`: nobody owns the destination name.
    package static let serviceUnknownName = "org.freedesktop.DBus.Error.ServiceUnknown"
    /// `org.freedesktop.DBus.Error.NameHasNoOwner`
    package static let nameHasNoOwnerName = "org.freedesktop.DBus.Error.NameHasNoOwner"
    /// `org.freedesktop.DBus.Error.NoReply`: the peer did not answer in time.
    package static let noReplyName = "org.freedesktop.DBus.Error.NoReply"
    /// `org.freedesktop.DBus.Error.Disconnected`: the connection closed before the answer came.
    package static let disconnectedName = "org.freedesktop.DBus.Error.Disconnected"
    /// `org.freedesktop.DBus.Error.LimitsExceeded`: a caller has too much outstanding.
    package static let limitsExceededName = "org.freedesktop.DBus.Error.LimitsExceeded"
    /// `org.freedesktop.DBus.Error.UnknownMethod`
    package static let unknownMethodName = "org.freedesktop.DBus.Error.UnknownMethod"
    /// `org.freedesktop.DBus.Error.UnknownObject`
    package static let unknownObjectName = "org.freedesktop.DBus.Error.UnknownObject"

    /// The caller may not do this.
    package static func accessDenied(_ message: String = "Only root may call this method.") -> BusError {
        BusError(name: accessDeniedName, message: message)
    }

    /// An argument is not accepted; say what is accepted in `message`.
    package static func invalidArgs(_ message: String) -> BusError {
        BusError(name: invalidArgsName, message: message)
    }

    /// Something failed; `name` defaults to `org.freedesktop.DBus.Error.Failed`.
    package static func failed(name: String = failedName, _ message: String) -> BusError {
        BusError(name: name, message: message)
    }

    /// Whether this is an AccessDenied error (from a handler or from the bus policy).
    package var isAccessDenied: Bool { name == Self.accessDeniedName || errno == EACCES || errno == EPERM }

    /// Whether the peer or the bus could not be reached (no owner, no reply, no connection).
    package var isUnreachable: Bool {
        let names: Set<String> = [
            Self.serviceUnknownName, Self.nameHasNoOwnerName, Self.noReplyName,
            "org.freedesktop.DBus.Error.NoServer", "org.freedesktop.DBus.Error.Disconnected",
            "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut",
        ]
        let codes: Set<Int32> = [ENOENT, ECONNREFUSED, ECONNRESET, ENOTCONN, ETIMEDOUT, ENXIO, EHOSTDOWN]
        return names.contains(name) || errno.map(codes.contains) == true
    }

    /// Whether the call was given up because the calling task was cancelled (`ECANCELED`).
    package var isCancelled: Bool { errno == ECANCELED }

    /// `name: message`.
    package var description: String { "\(name): \(message)" }

    /// Converts a filled sd-bus error, or, when it is unset, the failed call's `-errno` `result`.
    init(_ error: UnsafePointer<sd_bus_error>, result: Int32) {
        guard sd_bus_error_is_set(error) != 0 else {
            self.init(errno: -result)
            return
        }
        let name = error.pointee.name.map { String(cString: $0) } ?? Self.failedName
        let message = error.pointee.message.map { String(cString: $0) } ?? ""
        let code = sd_bus_error_get_errno(error)
        self.init(name: name, message: message, errno: code > 0 ? code : (result < 0 ? -result : nil))
    }

    /// An error for a local failure, named as sd-bus names errno values.
    init(errno code: Int32, operation: String? = nil) {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        sd_bus_error_set_errno(&error, code)
        let name = error.name.map { String(cString: $0) } ?? "System.Error.\(code)"
        let text = error.message.map { String(cString: $0) } ?? ""
        self.init(name: name, message: operation.map { "\($0): \(text)" } ?? text, errno: code)
    }
}
