import CSystemd
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Where ``JournalLogHandler``s write: journald's native socket, never waiting for it (``JournalDatagram``),
/// else a fallback descriptor.
///
/// One sink is shared by every handler (``shared``); it never throws, never crashes and never blocks on
/// journald. When journald is unreachable (nothing listens on `/run/systemd/journal/socket`) each entry
/// is written as one line to the fallback descriptor (stderr by default), serialized by a lock so lines
/// do not interleave; when journald is not reading, entries are dropped and counted.
public final class JournalSink: Sendable {
    /// The process-wide sink: journald, falling back to stderr.
    public static let shared = JournalSink()

    private let useJournal: Bool
    private let fallbackFD: CInt
    private let fallbackLock = Mutex<Void>(())
    /// The datagram socket entries go out on (-1 when none could be made).
    private let socketFD: CInt
    /// Entries dropped because journald was not reading; said in the next entry that goes through.
    private let dropped = Mutex<Int>(0)

    /// Creates a sink.
    /// - Parameters:
    ///   - useJournal: Try journald first (default). `false` writes every entry to `fallbackFD`.
    ///   - fallbackFD: Where lines go when journald is not used or not reachable (default 2, stderr);
    ///     not closed by the sink.
    public init(useJournal: Bool = true, fallbackFD: CInt = 2) {
        self.useJournal = useJournal
        self.fallbackFD = fallbackFD
        socketFD = useJournal ? JournalDatagram.openSocket() : -1
    }

    deinit {
        if socketFD >= 0 { close(socketFD) }
    }

    /// Whether journald's native socket exists on this machine.
    public static var isJournalReachable: Bool {
        access("/run/systemd/journal/socket", W_OK) == 0
    }

    /// Writes one entry: to journald if possible, else as `fallbackLine` to the fallback descriptor.
    ///
    /// Never waits for journald: an entry it is not reading now (its queue is full) is dropped and
    /// counted, and the next entry that goes through is preceded by one saying how many were lost.
    /// When no journald listens, the line goes to the fallback descriptor.
    public func write(_ fields: [JournalField], fallbackLine: @autoclosure () -> String) {
        if useJournal {
            switch JournalDatagram.send(JournalDatagram.encode(fields), on: socketFD) {
            case .sent:
                reportDropped(like: fields)
                return
            case .busy:
                dropped.withLock { $0 += 1 }
                return
            case .tooLarge:
                // sd_journal_sendv passes a large entry in a memfd.
                if Self.isJournalReachable, Self.send(fields) { return }
            case .unreachable:
                break
            }
        }
        var line = fallbackLine()
        if !line.hasSuffix("\n") { line += "\n" }
        fallbackLock.withLock { _ in
            var bytes = Array(line.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Glibc.write(fallbackFD, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                bytes = bytes.dropFirst(written)
            }
        }
    }

    /// After journald took an entry again: one more saying how many were dropped while it did not,
    /// as the program that logged `fields` (its SYSLOG_IDENTIFIER).
    private func reportDropped(like fields: [JournalField]) {
        let count = dropped.withLock { count in
            defer { count = 0 }
            return count
        }
        guard count > 0 else { return }
        var notice = [
            JournalField("MESSAGE", "dropped \(count) log entries while journald was not reading them"),
            JournalField("PRIORITY", "4"), JournalField("JOURNAL_DROPPED", "\(count)"),
        ]
        if let identifier = fields.first(named: "SYSLOG_IDENTIFIER") { notice.append(JournalField("SYSLOG_IDENTIFIER", identifier)) }
        if JournalDatagram.send(JournalDatagram.encode(notice), on: socketFD) != .sent {
            dropped.withLock { $0 += count }
        }
    }

    /// Sends `fields` with `sd_journal_sendv`; returns whether journald took them.
    static func send(_ fields: [JournalField]) -> Bool {
        var storage: [UInt8] = []
        var ranges: [Range<Int>] = []
        for field in fields {
            let start = storage.count
            storage.append(contentsOf: field.name.utf8)
            storage.append(UInt8(ascii: "="))
            storage.append(contentsOf: field.value.utf8)
            ranges.append(start..<storage.count)
        }
        let result = storage.withUnsafeMutableBytes { buffer -> Int32 in
            var vectors = ranges.map { range in
                iovec(iov_base: buffer.baseAddress! + range.lowerBound, iov_len: range.count)
            }
            return vectors.withUnsafeMutableBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) }
        }
        return result >= 0
    }
}
