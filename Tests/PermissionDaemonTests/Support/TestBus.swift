import Foundation
import RelaunchTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A dbus-daemon of the test's own, on a socket in a temporary folder, any user allowed; killed
/// (by its own pid) by ``stop()``.
final class TestBus: @unchecked Sendable {
    let directory: TemporaryDirectory
    var folder: String { directory.path }
    let address: String
    private let daemon = Process()

    init() throws {
        directory = try TemporaryDirectory(prefix: "permissiond-bus")
        address = "unix:path=\(directory.path)/bus"
        let configuration = directory.path + "/bus.conf"
        try Data("""
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
              </policy>
            </busconfig>
            """.utf8).write(to: URL(fileURLWithPath: configuration))
        // dbus-daemon prints its address once it listens: that line is the signal it is ready.
        let printed = Pipe()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--nofork", "--nopidfile", "--print-address=1", "--config-file=\(configuration)"]
        daemon.standardInput = FileHandle.nullDevice
        daemon.standardOutput = printed
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        var ready = pollfd(fd: printed.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        var waited: Int32
        repeat { waited = poll(&ready, 1, 60_000) } while waited == -1 && errno == EINTR
        try #require(waited == 1, "dbus-daemon did not print its address within 60 s (poll \(waited))")
    }

    /// Kills the daemon (it ignores SIGTERM) and removes its folder.
    func stop() {
        guard daemon.isRunning else { return }
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
        try? FileManager.default.removeItem(atPath: folder)
    }

    deinit { stop() }
}
