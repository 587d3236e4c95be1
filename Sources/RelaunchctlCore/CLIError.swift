#if canImport(Glibc)
import Glibc
#endif
import RelaunchContract
import Systemd

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

/// Writes "relaunchctl: message" to standard error, after what was printed to standard output.
package func printError(_ message: String) {
    StandardError.write(errorLine(message))
}

/// "relaunchctl: message" and a newline: one error, one line. A usage text keeps its lines,
/// anything else has its line breaks (any of Unicode's, "\r\n" too) folded into spaces and every
/// other control character escaped (``TerminalText``): a message may quote what an app, the bus or
/// the journal said.
package func errorLine(_ message: String) -> String {
    let folded = message.hasPrefix("OVERVIEW:") ? message : TerminalText.escaped(StandardError.oneLine(message))
    let line = "relaunchctl: " + folded
    return line.hasSuffix("\n") ? line : line + "\n"
}

package func exit(_ status: Int32) -> Never {
    fflush(nil)
    Glibc.exit(status)
}

/// The text of the current `errno`, for messages.
package func errnoText() -> String {
    String(cString: strerror(errno))
}

/// Waits a little between two polls of a condition that has a deadline (a signal may cut it
/// short, which only makes the next poll come sooner).
package func pause(milliseconds: Int) {
    usleep(useconds_t(milliseconds * 1000))
}
