import RelaunchTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A private `dbus-daemon` started for one test, listening in a temp dir; killed (by its pid) on deinit.
///
/// The policy lets any uid connect, own names and send, so tests can call in as `nobody`.
///
/// The daemon's stdin, stdout and stderr are /dev/null, never the test runner's: when a test process
/// crashed (skipping its `defer { bus.stop() }`), daemons left holding its stdout kept `swift test`
/// waiting for the end of that pipe for over 12 minutes.
final class PrivateBus {
    let directory: TemporaryDirectory
    let socketPath: String
    private(set) var pid: pid_t

    var address: String { "unix:path=\(socketPath)" }

    /// - Parameter authTimeoutMilliseconds: dbus-daemon's `auth_timeout`: how long a connection may
    ///   stay unauthenticated (unprocessed) before the daemon drops it (30 s on a real system bus).
    init(authTimeoutMilliseconds: Int? = nil) throws {
        directory = try TemporaryDirectory(prefix: "dbus")
        chmod(directory.path, 0o755)
        socketPath = directory.path + "/bus"
        let config = directory.path + "/bus.conf"
        let limit = authTimeoutMilliseconds.map { "<limit name=\"auth_timeout\">\($0)</limit>" } ?? ""
        let text = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socketPath)</listen>
              <auth>EXTERNAL</auth>
              \(limit)
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
        pid = try Self.spawn(config: config, socketPath: socketPath)
    }

    /// Kills the daemon and starts a new one at the same address, as `systemctl restart dbus` does:
    /// every connection to the old one is gone.
    func restart() throws {
        stop()
        unlink(socketPath)
        pid = try Self.spawn(config: directory.path + "/bus.conf", socketPath: socketPath)
        stopped = false
    }

    /// Starts dbus-daemon; returns once it listens.
    private static func spawn(config: String, socketPath: String) throws -> pid_t {
        // Ready is when dbus-daemon prints its address (--print-address): it listens by then. The
        // socket file alone appears before listen(), and a client can be refused in between.
        var pipeFDs: [Int32] = [0, 0]
        try #require(pipe(&pipeFDs) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 3)
        var spawned: pid_t = 0
        let argv = ["/usr/bin/dbus-daemon", "--nofork", "--nopidfile", "--print-address=3", "--config-file=\(config)"]
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        let spawnResult = posix_spawn(&spawned, argv[0], &actions, nil, cArgs, environ)
        close(pipeFDs[1])
        defer { close(pipeFDs[0]) }
        try #require(spawnResult == 0, "dbus-daemon did not start")
        var ready = pollfd(fd: pipeFDs[0], events: Int16(POLLIN), revents: 0)
        var printed = [UInt8](repeating: 0, count: 512)
        // Generous: the wait ends as soon as the address is printed.
        var waited: Int32
        repeat { waited = poll(&ready, 1, 120_000) } while waited == -1 && errno == EINTR
        let count = waited == 1 ? read(pipeFDs[0], &printed, printed.count) : -1
        try #require(count > 0, "dbus-daemon printed no address within 120 s (poll \(waited), read \(count))")
        chmod(socketPath, 0o777)
        return spawned
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
