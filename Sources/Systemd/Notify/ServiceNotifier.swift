import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// Sends `sd_notify` messages to the service manager; a no-op when not started by systemd.
///
/// Whether systemd listens is read from `NOTIFY_SOCKET` at every send, as libsystemd does, so the value
/// is cheap to copy and keep anywhere.
package struct ServiceNotifier: Sendable {
    /// Creates a notifier for the current process.
    package init() {}

    /// Whether `NOTIFY_SOCKET` is set, i.e. messages reach a service manager.
    package static var isSupervised: Bool { environmentValue("NOTIFY_SOCKET") != nil }

    /// Sends `states` as one message, passing `fileDescriptors` along (SCM_RIGHTS).
    ///
    /// - Parameters:
    ///   - states: What to tell systemd, e.g. `[.ready, .status("Restored")]`.
    ///   - fileDescriptors: Descriptors to send, e.g. with ``NotifyState/fdStore(name:)``; they stay open here.
    /// - Returns: `true` if the message was sent, `false` when not supervised (nothing happens).
    /// - Throws: ``SystemdError`` if a file descriptor name is invalid or the socket refuses the message.
    @discardableResult
    package func notify(_ states: [NotifyState], fileDescriptors: [CInt] = []) throws(SystemdError) -> Bool {
        for name in states.compactMap(\.fileDescriptorName) where !NotifyState.isValidFileDescriptorName(name) {
            throw SystemdError(code: .invalidArgument, operation: "sd_pid_notify (FDNAME)", target: name)
        }
        guard Self.isSupervised else { return false }
        let message = NotifyState.message(states)
        let sent = try sdCall("sd_pid_notify_with_fds", on: environmentValue("NOTIFY_SOCKET")) {
            fileDescriptors.withUnsafeBufferPointer { fds in
                sd_pid_notify_with_fds(0, 0, message, fds.baseAddress, UInt32(fds.count))
            }
        }
        return sent > 0
    }

    /// Sends `states` as one message. See ``notify(_:fileDescriptors:)``.
    @discardableResult
    package func notify(_ states: NotifyState...) throws(SystemdError) -> Bool {
        try notify(states)
    }

    /// Sends `READY=1`, with a `STATUS=` line when `status` is given.
    @discardableResult
    package func ready(status: String? = nil) throws(SystemdError) -> Bool {
        try notify([.ready] + (status.map { [.status($0)] } ?? []))
    }

    /// Sends `WATCHDOG=1`.
    @discardableResult
    package func watchdog() throws(SystemdError) -> Bool { try notify([.watchdog]) }

    /// Sends `STOPPING=1`.
    @discardableResult
    package func stopping() throws(SystemdError) -> Bool { try notify([.stopping]) }

    /// Hands `fd` to systemd's file descriptor store under `name` (`FDSTORE=1`, `FDNAME=name`).
    ///
    /// The unit needs `FileDescriptorStoreMax=`; the stored fd comes back via ``ListenFileDescriptors``
    /// after a restart. `fd` stays open in this process.
    @discardableResult
    package func storeFileDescriptor(_ fd: CInt, name: String) throws(SystemdError) -> Bool {
        try notify([.fdStore(name: name)], fileDescriptors: [fd])
    }

    /// Removes every stored file descriptor named `name` (`FDSTOREREMOVE=1`, `FDNAME=name`).
    @discardableResult
    package func removeStoredFileDescriptors(named name: String) throws(SystemdError) -> Bool {
        try notify([.fdStoreRemove(name: name)])
    }

    /// The unit's watchdog timeout (`WatchdogSec=`) if this process is expected to ping, else nil.
    ///
    /// Ping with ``watchdog()`` at half this interval (see ``recommendedWatchdogPingInterval()``).
    /// - Throws: ``SystemdError`` if `WATCHDOG_USEC`/`WATCHDOG_PID` are malformed.
    package static func watchdogTimeout() throws(SystemdError) -> Duration? {
        var usec: UInt64 = 0
        let enabled = try sdCall("sd_watchdog_enabled", on: "WATCHDOG_USEC") { sd_watchdog_enabled(0, &usec) }
        guard enabled > 0, usec > 0 else { return nil }
        return .microseconds(Int64(clamping: usec))
    }

    /// Half of ``watchdogTimeout()``: how often to send `WATCHDOG=1`, or nil when no watchdog is set.
    package static func recommendedWatchdogPingInterval() throws(SystemdError) -> Duration? {
        try watchdogTimeout().map { $0 / 2 }
    }

    /// Sends `WATCHDOG=1` every ``recommendedWatchdogPingInterval()`` until the task is cancelled.
    ///
    /// Returns at once when no watchdog is configured. Meant to be the body of a service's `run()`.
    /// - Throws: ``SystemdError`` if a ping cannot be sent.
    package func pingWatchdogPeriodically() async throws(SystemdError) {
        guard let interval = try Self.recommendedWatchdogPingInterval() else { return }
        while !Task.isCancelled {
            try watchdog()
            do {
                try await Task.sleep(for: interval)
            } catch {
                return  // cancelled
            }
        }
    }
}
