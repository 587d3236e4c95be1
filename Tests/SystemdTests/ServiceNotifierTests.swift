import RelaunchTestSupport
import Testing
@testable import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// The notifier and the listen fds read NOTIFY_SOCKET, LISTEN_*, WATCHDOG_* from the environment.
/// Setting them here would race with every other suite of this process (setenv while another thread
/// reads the environment), so each check runs in a child: this test binary again, filtered to
/// `ServiceNotifierInChild`, with the variables in its own environment and, for the listen fds, a
/// known memfd placed at fd 3 (`SD_LISTEN_FDS_START`) instead of whatever fd 3 is here.
@Suite("Service notifier and listen fds")
struct ServiceNotifierTests {
    @Test func isANoOpWithoutNotifySocket() throws {
        try ChildRun(.noNotifySocket).expectPassed()
    }

    @Test func listenFileDescriptorsComeWithNames() throws {
        let memfd = try SealedMemoryFile.create(name: "restoration", bytes: Array("archive at fd 3".utf8))
        defer { close(memfd) }
        try ChildRun(.listenFileDescriptors, environment: ["LISTEN_FDS=1", "LISTEN_FDNAMES=restoration"], ownPID: "LISTEN_PID", fd3: memfd)
            .expectPassed()
        try ChildRun(.noListenFileDescriptors, environment: ["LISTEN_PID=1", "LISTEN_FDS=1"], fd3: memfd).expectPassed()
        try ChildRun(.noListenFileDescriptors, ownPID: "LISTEN_PID").expectPassed()
    }

    @Test func rejectsInvalidFileDescriptorNames() {
        #expect(throws: SystemdError.self) {
            try ServiceNotifier().storeFileDescriptor(0, name: "bad:name")
        }
    }

    @Test func watchdogIsOffWithoutWatchdogEnvironment() throws {
        try ChildRun(.noWatchdog).expectPassed()
    }

    @Test func watchdogIntervalComesFromEnvironment() throws {
        try ChildRun(.watchdog, environment: ["WATCHDOG_USEC=3000000"], ownPID: "WATCHDOG_PID").expectPassed()
    }

    @Test func sendsReadyStatusAndStoresAFileDescriptor() throws {
        let directory = try TemporaryDirectory(prefix: "notify")
        let socketPath = directory.path + "/notify.sock"
        let receiver = try DatagramReceiver(path: socketPath)
        try ChildRun(.notify, environment: ["NOTIFY_SOCKET=\(socketPath)"]).expectPassed()

        #expect(try receiver.receive().text == "READY=1\nSTATUS=Restored")
        let stored = try receiver.receive()
        #expect(stored.text == "FDSTORE=1\nFDNAME=restoration")
        try #require(stored.fds.count == 1)
        defer { stored.fds.forEach { close($0) } }
        #expect(try SealedMemoryFile.readAll(from: stored.fds[0]) == Array("archive".utf8))
        #expect(try receiver.receive().text == "FDSTOREREMOVE=1\nFDNAME=restoration")
        #expect(try receiver.receive().text == "WATCHDOG=1")
        #expect(try receiver.receive().text == "STOPPING=1")
    }
}

/// The checks that run inside the child, one per scenario; skipped in an ordinary test run.
@Suite("ServiceNotifierInChild", .enabled(if: ChildScenario.current != nil))
struct ServiceNotifierInChild {
    @Test func check() throws {
        let scenario = try #require(ChildScenario.current)
        switch scenario {
        case .noNotifySocket:
            try #require(!ServiceNotifier.isSupervised)
            try #require(try ServiceNotifier().ready(status: "ignored") == false)
            try #require(try ServiceNotifier().storeFileDescriptor(0, name: "x") == false)
        case .listenFileDescriptors:
            try #require(try ListenFileDescriptors.take() == [ListenedFileDescriptor(fd: 3, name: "restoration")])
            try #require(try SealedMemoryFile.readAll(from: 3) == Array("archive at fd 3".utf8), "fd 3 is the one passed")
            try #require(try ListenFileDescriptors.first(named: "restoration")?.fd == 3)
            try #require(try ListenFileDescriptors.first(named: "other") == nil)
        case .noListenFileDescriptors:
            try #require(try ListenFileDescriptors.take().isEmpty, "not passed to this process, or none passed")
        case .noWatchdog:
            try #require(try ServiceNotifier.watchdogTimeout() == nil)
        case .watchdog:
            try #require(try ServiceNotifier.watchdogTimeout() == .seconds(3))
            try #require(try ServiceNotifier.recommendedWatchdogPingInterval() == .milliseconds(1500))
        case .notify:
            try #require(ServiceNotifier.isSupervised)
            try #require(try ServiceNotifier().ready(status: "Restored"))
            let memfd = try SealedMemoryFile.create(name: "restoration", bytes: Array("archive".utf8))
            defer { close(memfd) }
            try #require(try ServiceNotifier().storeFileDescriptor(memfd, name: "restoration"))
            try #require(try ServiceNotifier().removeStoredFileDescriptors(named: "restoration"))
            try #require(try ServiceNotifier().watchdog())
            try #require(try ServiceNotifier().stopping())
        }
        // Reached only when every check above held: the parent looks for this line.
        print(ChildRun.passedMarker + scenario.rawValue)
    }
}

/// What the child checks.
enum ChildScenario: String, CaseIterable {
    case noNotifySocket, listenFileDescriptors, noListenFileDescriptors, noWatchdog, watchdog, notify

    /// The environment variable naming the scenario in the child.
    static let variable = "RELAUNCH_SYSTEMD_TEST_CHILD"
    /// The scenario this process is a child for, if it is one (reading the environment is safe).
    static var current: ChildScenario? { getenv(variable).flatMap { ChildScenario(rawValue: String(cString: $0)) } }
}

/// This test binary run again for one scenario, with its own environment; finished when created.
struct ChildRun {
    static let passedMarker = "child scenario passed: "

    let scenario: ChildScenario
    /// The exit status, or 128 + the signal that killed it.
    let status: Int32
    let output: String

    /// Runs the child and waits for it (the child's own tests time out; this waits at most as long).
    ///
    /// - Parameters:
    ///   - environment: Variables for the child, besides the scenario's.
    ///   - ownPID: A variable to set to the child's own pid (LISTEN_PID, WATCHDOG_PID), through `sh -c`'s `$$`.
    ///   - fd3: A descriptor to place at fd 3 in the child.
    init(_ scenario: ChildScenario, environment: [String] = [], ownPID: String? = nil, fd3: CInt? = nil) throws {
        self.scenario = scenario
        var template = Array("/tmp/systemd-child.XXXXXX".utf8CString)
        let outputFD = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        try #require(outputFD >= 0)
        let outputPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { close(outputFD); unlink(outputPath) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputFD, 1)
        posix_spawn_file_actions_adddup2(&actions, outputFD, 2)
        var source = fd3 ?? -1
        if source == 3 { source = dup(3) }
        defer { if source != (fd3 ?? -1) { close(source) } }
        if source >= 0 { posix_spawn_file_actions_adddup2(&actions, source, 3) } else { posix_spawn_file_actions_addclose(&actions, 3) }

        let binary = try Self.testBinary()
        let script = (ownPID.map { "export \($0)=$$; " } ?? "") + #"exec "$0" "$@""#
        let argv = ["/bin/sh", "-c", script, binary, "--testing-library", "swift-testing", "--filter", "ServiceNotifierInChild"]
        let env = ["PATH=/usr/bin:/bin", "\(ChildScenario.variable)=\(scenario.rawValue)"] + environment
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = env.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, cArgs, cEnv)
        try #require(spawned == 0, "posix_spawn: errno \(spawned)")
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)

        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        lseek(outputFD, 0, SEEK_SET)
        while true {
            let count = read(outputFD, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        output = String(decoding: bytes, as: UTF8.self)
    }

    /// Expects the child to have exited 0 after running its checks to the end.
    func expectPassed(sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(status == 0, "child for \(scenario) exited \(status):\n\(output)", sourceLocation: sourceLocation)
        #expect(output.contains(Self.passedMarker + scenario.rawValue), "child for \(scenario):\n\(output)",
                sourceLocation: sourceLocation)
    }

    private static func testBinary() throws -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        try #require(count > 0)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A bound AF_UNIX datagram socket that receives notify messages and the fds sent with them.
struct DatagramReceiver: ~Copyable {
    let fd: CInt

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8.prefix(raw.count - 1))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0, "bind \(path): errno \(errno)")
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// One datagram: its text and any SCM_RIGHTS descriptors (owned by the caller).
    func receive() throws -> (text: String, fds: [CInt]) {
        var data = [UInt8](repeating: 0, count: 4096)
        var control = [UInt8](repeating: 0, count: 256)
        let (count, controlLength) = data.withUnsafeMutableBytes { dataBytes in
            control.withUnsafeMutableBytes { controlBytes in
                var vector = iovec(iov_base: dataBytes.baseAddress, iov_len: dataBytes.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var message = msghdr()
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    message.msg_control = controlBytes.baseAddress
                    message.msg_controllen = controlBytes.count
                    let received = recvmsg(fd, &message, Int32(MSG_CMSG_CLOEXEC))
                    return (received, Int(message.msg_controllen))
                }
            }
        }
        try #require(count >= 0, "recvmsg: errno \(errno)")
        // cmsghdr: size_t len, int level, int type, then data aligned to size_t.
        var fds: [CInt] = []
        var offset = 0
        let headerSize = MemoryLayout<cmsghdr>.stride
        while offset + headerSize <= controlLength {
            let header = control.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self) }
            guard header.cmsg_len >= headerSize else { break }
            if header.cmsg_level == SOL_SOCKET && header.cmsg_type == Int32(SCM_RIGHTS) {
                let n = (Int(header.cmsg_len) - headerSize) / MemoryLayout<CInt>.size
                for i in 0..<n {
                    fds.append(control.withUnsafeBytes {
                        $0.loadUnaligned(fromByteOffset: offset + headerSize + i * 4, as: CInt.self)
                    })
                }
            }
            offset += (Int(header.cmsg_len) + 7) & ~7
        }
        return (String(decoding: data.prefix(count), as: UTF8.self), fds)
    }
}
