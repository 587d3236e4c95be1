#if canImport(Glibc)
import Glibc
#endif

/// A failure the user sees: one line saying what failed and what to do, and the exit code.
package struct CLIError: Error, CustomStringConvertible {
    /// The contract's exit codes.
    package enum Code: Int32 {
        case failed = 1
        case usage = 2
        case unavailable = 69
        case notAuthorized = 77
    }

    package var code: Code
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }

    package static func usage(_ message: String) -> CLIError { CLIError(.usage, message) }
    package static func failed(_ message: String) -> CLIError { CLIError(.failed, message) }
}

/// Writes "relaunchctl: message" to standard error.
package func printError(_ message: String) {
    // One error, one line: a usage text keeps its lines, anything else is folded onto one.
    let folded = message.hasPrefix("OVERVIEW:") ? message : String(message.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    var line = "relaunchctl: " + folded
    if !line.hasSuffix("\n") { line += "\n" }
    fflush(nil)
    var bytes = Array(line.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return }
        bytes = bytes.dropFirst(written)
    }
}

package func exit(_ status: Int32) -> Never {
    fflush(nil)
    Glibc.exit(status)
}

/// The text of the current `errno`, for messages.
package func errnoText() -> String {
    String(cString: strerror(errno))
}

/// Waits a little between two polls of a condition that has a deadline.
package func pause(milliseconds: Int) {
    var request = timespec(tv_sec: 0, tv_nsec: milliseconds * 1_000_000)
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
