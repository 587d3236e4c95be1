import Testing
@testable import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// Touches NOTIFY_SOCKET and LISTEN_*, so serialized; nothing else in this target reads them.
@Suite("Service notifier and listen fds", .serialized)
struct ServiceNotifierTests {
    @Test func isANoOpWithoutNotifySocket() throws {
        try withEnvironment("NOTIFY_SOCKET", nil) { () throws in
            #expect(!ServiceNotifier.isSupervised)
            #expect(try ServiceNotifier().ready(status: "ignored") == false)
            #expect(try ServiceNotifier().storeFileDescriptor(0, name: "x") == false)
        }
    }

    @Test func listenFileDescriptorsComeWithNames() throws {
        // fd 3 is open in the test runner; sd_listen_fds only marks it close-on-exec.
        try withEnvironment("LISTEN_PID", String(getpid())) { () throws in
            try withEnvironment("LISTEN_FDS", "1") { () throws in
                try withEnvironment("LISTEN_FDNAMES", "restoration") { () throws in
                    #expect(try ListenFileDescriptors.take() == [ListenedFileDescriptor(fd: 3, name: "restoration")])
                    #expect(try ListenFileDescriptors.first(named: "restoration")?.fd == 3)
                    #expect(try ListenFileDescriptors.first(named: "other") == nil)
                }
            }
            try withEnvironment("LISTEN_FDS", nil) { () throws in
                #expect(try ListenFileDescriptors.take().isEmpty)
            }
        }
        try withEnvironment("LISTEN_PID", String(getpid() + 1)) { () throws in
            try withEnvironment("LISTEN_FDS", "1") { () throws in
                #expect(try ListenFileDescriptors.take().isEmpty, "another process's fds are not ours")
            }
        }
    }

    @Test func rejectsInvalidFileDescriptorNames() {
        #expect(throws: SystemdError.self) {
            try ServiceNotifier().storeFileDescriptor(0, name: "bad:name")
        }
    }

    @Test func watchdogIsOffWithoutWatchdogEnvironment() throws {
        try withEnvironment("WATCHDOG_USEC", nil) { () throws in
            #expect(try ServiceNotifier.watchdogTimeout() == nil)
        }
    }

    @Test func watchdogIntervalComesFromEnvironment() throws {
        try withEnvironment("WATCHDOG_PID", String(getpid())) { () throws in
            try withEnvironment("WATCHDOG_USEC", "3000000") { () throws in
                #expect(try ServiceNotifier.watchdogTimeout() == .seconds(3))
                #expect(try ServiceNotifier.recommendedWatchdogPingInterval() == .milliseconds(1500))
            }
        }
    }

    @Test func sendsReadyStatusAndStoresAFileDescriptor() throws {
        let directory = try TemporaryDirectory("notify")
        let socketPath = directory.path + "/notify.sock"
        let receiver = try DatagramReceiver(path: socketPath)
        let memfd = try SealedMemoryFile.create(name: "restoration", bytes: Array("archive".utf8))
        defer { close(memfd) }

        try withEnvironment("NOTIFY_SOCKET", socketPath) { () throws in
            #expect(ServiceNotifier.isSupervised)
            #expect(try ServiceNotifier().ready(status: "Restored"))
            let first = try receiver.receive()
            #expect(first.text == "READY=1\nSTATUS=Restored")
            #expect(first.fds.isEmpty)

            #expect(try ServiceNotifier().storeFileDescriptor(memfd, name: "restoration"))
            let second = try receiver.receive()
            #expect(second.text == "FDSTORE=1\nFDNAME=restoration")
            try #require(second.fds.count == 1)
            defer { second.fds.forEach { close($0) } }
            #expect(try SealedMemoryFile.readAll(from: second.fds[0]) == Array("archive".utf8))

            #expect(try ServiceNotifier().removeStoredFileDescriptors(named: "restoration"))
            #expect(try receiver.receive().text == "FDSTOREREMOVE=1\nFDNAME=restoration")
            #expect(try ServiceNotifier().watchdog())
            #expect(try receiver.receive().text == "WATCHDOG=1")
            #expect(try ServiceNotifier().stopping())
            #expect(try receiver.receive().text == "STOPPING=1")
        }
    }
}

/// A bound AF_UNIX datagram socket that receives notify messages and the fds sent with them.
private struct DatagramReceiver: ~Copyable {
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
