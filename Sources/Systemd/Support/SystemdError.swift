#if canImport(Glibc)
import Glibc
#endif

/// A failed call into libsystemd or the kernel: the errno, what failed and on what.
///
/// Every `-errno` returned by an `sd_*` function and every `-1`/`errno` pair from a system call is turned
/// into this type in one place (`Syscalls.swift`), so messages always name the operation and its target.
package struct SystemdError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The errno value behind the failure.
    package var code: Code
    /// The operation that failed, e.g. `"sd_bus_open_system"` or `"memfd_create"`.
    package var operation: String
    /// What the operation worked on (a path, a bus name, a field), if anything.
    package var target: String?

    /// Creates an error for `operation` on `target` that failed with `code`.
    package init(code: Code, operation: String, target: String? = nil) {
        self.code = code
        self.operation = operation
        self.target = target
    }

    /// One line saying what failed, on what, and why.
    package var description: String {
        let on = target.map { " on \($0)" } ?? ""
        return "\(operation)\(on) failed: \(code)"
    }

    /// An errno value, with names for the ones callers branch on.
    package struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The positive errno number.
        package var rawValue: Int32
        /// Wraps a positive errno number.
        package init(rawValue: Int32) { self.rawValue = rawValue }

        /// `EPERM`: the operation is not permitted.
        package static let notPermitted = Code(rawValue: EPERM)
        /// `ENOENT`: no such file, socket or entry.
        package static let noEntry = Code(rawValue: ENOENT)
        /// `EINTR`: interrupted by a signal.
        package static let interrupted = Code(rawValue: EINTR)
        /// `EBADF`: not an open file descriptor.
        package static let badFileDescriptor = Code(rawValue: EBADF)
        /// `EAGAIN`: try again.
        package static let wouldBlock = Code(rawValue: EAGAIN)
        /// `EACCES`: permission denied.
        package static let permissionDenied = Code(rawValue: EACCES)
        /// `EINVAL`: an invalid argument.
        package static let invalidArgument = Code(rawValue: EINVAL)
        /// `ENOTCONN`: the connection is not (or no longer) open.
        package static let notConnected = Code(rawValue: ENOTCONN)
        /// `ECONNREFUSED`: nobody listens on the socket.
        package static let connectionRefused = Code(rawValue: ECONNREFUSED)
        /// `ECONNRESET`: the peer closed the connection.
        package static let connectionReset = Code(rawValue: ECONNRESET)
        /// `ETIMEDOUT`: a timeout expired.
        package static let timedOut = Code(rawValue: ETIMEDOUT)
        /// `EADDRNOTAVAIL`: e.g. the journal has no such cursor or position.
        package static let addressNotAvailable = Code(rawValue: EADDRNOTAVAIL)
        /// `ECANCELED`: the operation was cancelled.
        package static let cancelled = Code(rawValue: ECANCELED)

        /// The C library's text for this errno plus its number, e.g. `No such file or directory (errno 2)`.
        package var description: String {
            "\(String(cString: strerror(rawValue))) (errno \(rawValue))"
        }
    }
}
