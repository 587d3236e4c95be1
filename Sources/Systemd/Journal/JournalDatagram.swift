#if canImport(Glibc)
import Glibc
#endif

/// One journal entry in journald's native protocol, sent to its socket without ever blocking.
///
/// `sd_journal_sendv` sends on a blocking socket: when journald stops reading (frozen, stuck on a
/// slow disk, SIGSTOPped) the socket's queue fills after `net.unix.max_dgram_qlen` entries (10 on some
/// machines) and every further log call waits for journald, so an app's bus loop stops answering and
/// its watchdog aborts it. Here an entry journald cannot take at once is reported as `busy` and dropped.
enum JournalDatagram {
    /// journald's native socket.
    static let socketPath = "/run/systemd/journal/socket"

    /// What one send found.
    enum Outcome: Equatable, Sendable {
        /// journald took it.
        case sent
        /// journald's queue is full: it is not reading now (EAGAIN, ENOBUFS).
        case busy
        /// Too large for one datagram (EMSGSIZE): send it another way.
        case tooLarge
        /// No journald listens (ENOENT, ECONNREFUSED) or the send failed otherwise.
        case unreachable
    }

    /// `fields` in the native protocol: `NAME=value\n`, or for a value holding a newline
    /// `NAME\n`, its length as 64-bit little-endian, the value, `\n`.
    static func encode(_ fields: [JournalField]) -> [UInt8] {
        var bytes: [UInt8] = []
        for field in fields {
            let value = Array(field.value.utf8)
            bytes.append(contentsOf: field.name.utf8)
            if value.contains(UInt8(ascii: "\n")) {
                bytes.append(UInt8(ascii: "\n"))
                withUnsafeBytes(of: UInt64(value.count).littleEndian) { bytes.append(contentsOf: $0) }
            } else {
                bytes.append(UInt8(ascii: "="))
            }
            bytes.append(contentsOf: value)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// A datagram socket to send entries on (close-on-exec), or -1.
    static func openSocket() -> CInt {
        socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
    }

    /// Sends `bytes` on `fd` to the socket at `path` with MSG_DONTWAIT: never waits for the reader.
    static func send(_ bytes: [UInt8], on fd: CInt, to path: String = socketPath) -> Outcome {
        guard fd >= 0 else { return .unreachable }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return .unreachable }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + 1)
        while true {
            let sent = bytes.withUnsafeBytes { buffer in
                withUnsafePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(fd, buffer.baseAddress, buffer.count, CInt(MSG_DONTWAIT) | CInt(MSG_NOSIGNAL), $0, length)
                    }
                }
            }
            if sent >= 0 { return .sent }
            switch errno {
            case EINTR: continue
            case EAGAIN, ENOBUFS: return .busy
            case EMSGSIZE: return .tooLarge
            default: return .unreachable
            }
        }
    }
}
