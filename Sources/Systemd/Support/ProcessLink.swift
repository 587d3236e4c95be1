import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// One end of a `SOCK_SEQPACKET` pair between a process and a child it spawned: messages of one tag
/// byte, each with at most one file descriptor (SCM_RIGHTS). The end of the stream (every copy of the
/// other end closed) says the other process is gone, whichever way it ended.
package final class ProcessLink: Sendable {
    /// The descriptor number of this end.
    package let fd: CInt

    /// Adopts `fd` (closed with the link).
    package init(adopting fd: CInt) {
        self.fd = fd
    }

    deinit { close(fd) }

    /// What ``receive()`` read: a tag and the descriptor that came with it, or the end of the stream.
    package enum Message: Sendable, Equatable {
        /// One tag byte; `fd` is a new descriptor in this process (close-on-exec), the receiver's to close.
        case tag(UInt8, fd: CInt?)
        /// The other end is closed everywhere: the process at it has ended.
        case end
    }

    /// Sends `tag`, with a duplicate of `fd` when given (`fd` itself stays open here).
    /// - Throws: ``SystemdError`` from sendmsg (`EPIPE` when the other process is gone).
    package func send(_ tag: UInt8, fd descriptor: CInt? = nil) throws(SystemdError) {
        _ = try sysCall("sendmsg", on: "the standby link") {
            csystemd_send_tag(fd, CChar(bitPattern: tag), descriptor ?? -1)
        }
    }

    /// Waits for the next message. The other end's closing is ``Message/end`` whether or not it left
    /// messages of ours unread (`ECONNRESET`).
    /// - Throws: ``SystemdError`` from recvmsg.
    package func receive() throws(SystemdError) -> Message {
        var tag: CChar = 0
        var received: CInt = -1
        let count: CInt
        do {
            count = try sysCall("recvmsg", on: "the standby link") { csystemd_receive_tag(fd, &tag, &received) }
        } catch where error.code.rawValue == ECONNRESET {
            return .end  // the other end closed with messages of ours unread: it is gone all the same
        }
        if count == 0 { return .end }
        return .tag(UInt8(bitPattern: tag), fd: received >= 0 ? received : nil)
    }

    /// From now on this process announces every end but SIGKILL on this link, tag `leave`: a handler
    /// on each catchable fatal signal sends it and re-raises the signal (its default action), and
    /// `exit()` sends it. SIGTERM and SIGINT are left to whoever handles them (they end in `exit()`).
    /// - Throws: ``SystemdError`` when a handler cannot be installed.
    package func announceEveryEndButSIGKILL() throws(SystemdError) {
        _ = try sysCall("sigaction", on: "the standby link") { csystemd_announce_leave_on(fd) }
    }

    /// The tag ``announceEveryEndButSIGKILL()`` sends.
    package static let leave = UInt8(ascii: "L")

    /// Spawns `path` with `arguments` (argv[0] first) and `environment` (`NAME=value`), its end of a
    /// new link as descriptor 3 and nothing else open but 0, 1 and 2.
    /// - Returns: this process's end of the link and the child's pid.
    /// - Throws: ``SystemdError`` from socketpair or posix_spawn.
    package static func spawn(
        _ path: String, arguments: [String], environment: [String]
    ) throws(SystemdError) -> (link: ProcessLink, pid: Int32) {
        var pair: [CInt] = [-1, -1]
        _ = try sysCall("socketpair", on: "the standby link") { csystemd_socketpair_seqpacket(&pair) }
        let parent = ProcessLink(adopting: pair[0])
        defer { close(pair[1]) }
        var pid: CInt = 0
        let result = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in
                csystemd_spawn_with_link(path, argv, envp, pair[1], &pid)
            }
        }
        if result != 0 { throw SystemdError(code: .init(rawValue: result), operation: "posix_spawn", target: path) }
        return (parent, pid)
    }

    /// What ``fork()`` returned in each process.
    package enum Forked {
        /// In the parent: its end of the link and the child's pid.
        case parent(ProcessLink, pid: Int32)
        /// In the child: its end of the link (descriptor 3; nothing else is open but 0, 1 and 2).
        case child(ProcessLink)
    }

    /// Forks this process joined to the child by a new link. Only for a process with one thread: a
    /// fork copies the calling thread alone, and a lock another thread held would stay locked forever.
    /// - Throws: ``SystemdError`` from socketpair or fork.
    package static func fork() throws(SystemdError) -> Forked {
        var end: CInt = -1
        let pid = try sysCall("fork", on: "the standby link") { csystemd_fork_with_link(&end) }
        return pid == 0 ? .child(ProcessLink(adopting: end)) : .parent(ProcessLink(adopting: end), pid: pid)
    }

    /// How many threads this process has (`/proc/self/stat`); nil when it cannot be read.
    package static func threadCount() -> Int? {
        let fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        // Field 20, counted after the command's closing parenthesis (field 2 may hold spaces).
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 17 ? Int(fields[17]) : nil
    }

    /// Calls `body` with `strings` as a NULL-terminated array of C strings.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }
}
