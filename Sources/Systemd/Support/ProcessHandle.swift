import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// A process pinned by a pidfd: while the handle says the process is alive, its pid cannot have
/// been given to another process. For checks that ask someone else about a pid (systemd's
/// `GetUnitByPID`) and must know the answer was about the same process.
package final class ProcessHandle: Sendable {
    private let fd: CInt
    /// The pid the handle was opened for.
    package let pid: Int32

    /// Pins the process that has `pid` now.
    /// - Throws: ``SystemdError`` (`ESRCH` when no such process runs).
    package init(pid: Int32) throws(SystemdError) {
        self.pid = pid
        fd = try sysCall("pidfd_open", on: "pid \(pid)") { csystemd_pidfd_open(pid) }
    }

    deinit { close(fd) }

    /// Whether the pinned process has not exited yet (a pidfd turns readable when it exits).
    package var isAlive: Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 0
    }

    /// Sends `signal` to the pinned process (`pidfd_send_signal`: never to a process that got its pid
    /// since). Needs the rights `kill(2)` needs.
    /// - Throws: ``SystemdError`` (`ESRCH` when it has exited already, `EPERM` without the rights).
    package func send(_ signal: CInt) throws(SystemdError) {
        _ = try sysCall("pidfd_send_signal", on: "pid \(pid)") { csystemd_pidfd_send_signal(fd, signal) }
    }

    /// Waits until the pinned process has exited (the kernel has reparented its children by then),
    /// at most `milliseconds`; returns whether it has.
    package func waitUntilExited(milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&poller, 1, milliseconds)
            if result == -1 && errno == EINTR { continue }
            return result > 0
        }
    }
}

/// The systemd unit this process runs in (`sd_pid_get_unit`, from its cgroup), or nil outside one.
package func currentSystemdUnit() -> String? {
    var unit: UnsafeMutablePointer<CChar>?
    guard sd_pid_get_unit(0, &unit) >= 0, let unit else { return nil }
    defer { free(unit) }
    return String(cString: unit)
}
