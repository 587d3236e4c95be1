/// One assignment (or a small group of them) in an `sd_notify` message.
///
/// ``message(_:)`` joins states into the newline-separated text systemd reads from `NOTIFY_SOCKET`.
package enum NotifyState: Sendable, Hashable {
    /// `READY=1`: start-up finished.
    case ready
    /// `RELOADING=1`: reloading configuration.
    case reloading
    /// `STOPPING=1`: shutting down.
    case stopping
    /// `WATCHDOG=1`: the service is alive; send at half the watchdog timeout.
    case watchdog
    /// `WATCHDOG=trigger`: ask systemd to act as if the watchdog expired.
    case watchdogTrigger
    /// `STATUS=…`: a one-line status shown by `systemctl status` (newlines become spaces).
    case status(String)
    /// `MAINPID=…`: the service's main process.
    case mainPID(Int32)
    /// `ERRNO=…`: the service failed with this errno.
    case errno(Int32)
    /// `EXTEND_TIMEOUT_USEC=…`: extend the current start/stop timeout by this many microseconds.
    case extendTimeout(microseconds: UInt64)
    /// `FDSTORE=1` + `FDNAME=…`: store the file descriptors sent with this message under `name`.
    case fdStore(name: String)
    /// `FDSTOREREMOVE=1` + `FDNAME=…`: drop the stored file descriptors named `name`.
    case fdStoreRemove(name: String)

    /// The `KEY=value` lines of this state, in order.
    package var assignments: [String] {
        switch self {
        case .ready: ["READY=1"]
        case .reloading: ["RELOADING=1"]
        case .stopping: ["STOPPING=1"]
        case .watchdog: ["WATCHDOG=1"]
        case .watchdogTrigger: ["WATCHDOG=trigger"]
        case .status(let text): ["STATUS=" + StandardError.oneLine(text)]
        case .mainPID(let pid): ["MAINPID=\(pid)"]
        case .errno(let code): ["ERRNO=\(code)"]
        case .extendTimeout(let usec): ["EXTEND_TIMEOUT_USEC=\(usec)"]
        case .fdStore(let name): ["FDSTORE=1", "FDNAME=\(name)"]
        case .fdStoreRemove(let name): ["FDSTOREREMOVE=1", "FDNAME=\(name)"]
        }
    }

    /// The full notify message for `states`: their assignments joined by newlines.
    package static func message(_ states: [NotifyState]) -> String {
        states.flatMap(\.assignments).joined(separator: "\n")
    }

    /// Whether `name` is accepted by systemd as an `FDNAME`: 1–255 printable ASCII characters, no `:`.
    package static func isValidFileDescriptorName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...255).contains(bytes.count) else { return false }
        return bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }
    }

    /// The file descriptor name this state carries, if any.
    var fileDescriptorName: String? {
        switch self {
        case .fdStore(let name), .fdStoreRemove(let name): name
        default: nil
        }
    }
}
