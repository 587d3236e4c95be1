import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A private `dbus-daemon` started for one test, listening in a temp dir; killed (by its pid) on deinit.
///
/// The policy lets any uid connect, own names and send, so tests can call in as `nobody`.
final class PrivateBus {
    let directory: TemporaryDirectory
    let socketPath: String
    let pid: pid_t

    var address: String { "unix:path=\(socketPath)" }

    init() throws {
        directory = try TemporaryDirectory("dbus")
        chmod(directory.path, 0o755)
        socketPath = directory.path + "/bus"
        let config = directory.path + "/bus.conf"
        let text = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socketPath)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_destination="*"/>
                <allow receive_sender="*"/>
              </policy>
            </busconfig>
            """
        let file = fopen(config, "w")
        try #require(file != nil)
        fputs(text, file)
        fclose(file)

        var spawned: pid_t = 0
        let argv = ["/usr/bin/dbus-daemon", "--nofork", "--nopidfile", "--config-file=\(config)"]
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        try #require(posix_spawn(&spawned, argv[0], nil, nil, cArgs, environ) == 0, "dbus-daemon did not start")
        pid = spawned
        for _ in 0..<200 where access(socketPath, F_OK) != 0 { usleep(10_000) }
        try #require(access(socketPath, F_OK) == 0, "dbus-daemon did not create \(socketPath)")
        chmod(socketPath, 0o777)
    }

    private var stopped = false

    /// Kills the daemon (SIGKILL: it ignores SIGTERM here) and reaps it. Call it at the end of the
    /// test (`defer { bus.stop() }`) so the daemon outlives every connection made to it.
    func stop() {
        guard !stopped else { return }
        stopped = true
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }

    deinit { stop() }
}
