#if canImport(Glibc)
import Glibc
#endif

/// A failed call into libsystemd or the kernel: the errno, what failed and on what.
///
/// Every `-errno` returned by an `sd_*` function and every `-1`/`errno` pair from a system call is turned
/// into this type in one place (`Syscalls.swift`), so messages always name the operation and its target.
public struct SystemdError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The errno value behind the failure.
    public var code: Code
    /// The operation that failed, e.g. `"sd_bus_open_system"` or `"memfd_create"`.
    public var operation: String
    /// What the operation worked on (a path, a bus name, a field), if anything.
    public var target: String?

    /// Creates an error for `operation` on `target` that failed with `code`.
    public init(code: Code, operation: String, target: String? = nil) {
        self.code = code
        self.operation = operation
        self.target = target
    }

    /// One line saying what failed, on what, and why.
    public var description: String {
        let on = target.map { " on \($0)" } ?? ""
        return "\(operation)\(on) failed: \(code)"
    }

    /// An errno value, with names for the ones callers branch on.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The positive errno number.
        public var rawValue: Int32
        /// Wraps a positive errno number.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// `EPERM`: the operation is not permitted.
        public static let notPermitted = Code(rawValue: EPERM)
        /// `ENOENT`: no such file, socket or entry.
        public static let noEntry = Code(rawValue: ENOENT)
        /// `EINTR`: interrupted by a signal.
        public static let interrupted = Code(rawValue: EINTR)
        /// `EBADF`: not an open file descriptor.
        public static let badFileDescriptor = Code(rawValue: EBADF)
        /// `EAGAIN`: try again.
        public static let wouldBlock = Code(rawValue: EAGAIN)
        /// `EACCES`: permission denied.
        public static let permissionDenied = Code(rawValue: EACCES)
        /// `EINVAL`: an invalid argument.
        public static let invalidArgument = Code(rawValue: EINVAL)
        /// `ENOTCONN`: the connection is not (or no longer) open.
        public static let notConnected = Code(rawValue: ENOTCONN)
        /// `ECONNREFUSED`: nobody listens on the socket.
        public static let connectionRefused = Code(rawValue: ECONNREFUSED)
        /// `ECONNRESET`: the peer closed the connection.
        public static let connectionReset = Code(rawValue: ECONNRESET)
        /// `ETIMEDOUT`: a timeout expired.
        public static let timedOut = Code(rawValue: ETIMEDOUT)
        /// `EADDRNOTAVAIL`: e.g. the journal has no such cursor or position.
        public static let addressNotAvailable = Code(rawValue: EADDRNOTAVAIL)
        /// `ECANCELED`: the operation was cancelled.
        public static let cancelled = Code(rawValue: ECANCELED)

        /// The C library's text for this errno plus its number, e.g. `No such file or directory (errno 2)`.
        public var description: String {
            "\(String(cString: strerror(rawValue))) (errno \(rawValue))"
        }
    }
}
