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
package final class JournalSink: Sendable {
    /// The process-wide sink: journald, falling back to stderr.
    package static let shared = JournalSink()

    private let useJournal: Bool
    private let fallbackFD: CInt
    private let fallbackLock = Mutex<Void>(())
    /// The datagram socket entries go out on (-1 when none could be made).
    private let socketFD: CInt
    /// Where journald listens (a test's socket in tests).
    private let socketPath: String
    /// How long one entry may wait for journald to make room before it is dropped.
    private let patience: Duration
    /// Entries dropped because journald was not reading; said in the next entry that goes through.
    private let dropped = Mutex<Int>(0)

    /// Creates a sink.
    /// - Parameters:
    ///   - useJournal: Try journald first (default). `false` writes every entry to `fallbackFD`.
    ///   - fallbackFD: Where lines go when journald is not used or not reachable (default 2, stderr);
    ///     not closed by the sink.
    package convenience init(useJournal: Bool = true, fallbackFD: CInt = 2) {
        self.init(useJournal: useJournal, fallbackFD: fallbackFD, socketPath: JournalDatagram.socketPath)
    }

    /// A sink writing to the journal namespace `namespace` (systemd-journald@NAMESPACE, the journal of
    /// units with `LogNamespace=NAMESPACE`) instead of the default journal; root may write to any.
    package convenience init(namespace: String, fallbackFD: CInt = 2) {
        self.init(useJournal: true, fallbackFD: fallbackFD, socketPath: "/run/systemd/journal.\(namespace)/socket")
    }

    /// The journal namespaces whose journald listens now (`/run/systemd/journal.NAMESPACE/socket`), sorted.
    package static func listeningNamespaces() -> [String] {
        guard let folder = opendir("/run/systemd") else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix("journal."), name.count > "journal.".count else { continue }
            if access("/run/systemd/\(name)/socket", F_OK) == 0 { names.append(String(name.dropFirst("journal.".count))) }
        }
        return names.sorted()
    }

    /// A sink sending to `socketPath`, waiting up to `patience` for room (tests).
    init(useJournal: Bool = true, fallbackFD: CInt = 2, socketPath: String, patience: Duration = .milliseconds(250)) {
        self.useJournal = useJournal
        self.fallbackFD = fallbackFD
        self.socketPath = socketPath
        self.patience = patience
        socketFD = useJournal ? JournalDatagram.openSocket() : -1
    }

    deinit {
        if socketFD >= 0 { close(socketFD) }
    }

    /// Whether journald's native socket exists on this machine.
    package static var isJournalReachable: Bool {
        access("/run/systemd/journal/socket", W_OK) == 0
    }

    /// Writes one entry: to journald if possible, else as `fallbackLine` to the fallback descriptor.
    ///
    /// Never waits long for journald. Its queue holds only `net.unix.max_dgram_qlen` entries (10 where
    /// systemd's sysctl defaults are not applied), which a burst of entries (one per restored
    /// controller) can fill while journald is merely not scheduled yet: then the entry waits for room
    /// up to a quarter of a second. An entry journald did not take by then is dropped and counted, and
    /// so is every later one at once until journald reads again (it is stuck: waiting would only stall
    /// the caller); the next entry that goes through is followed by one saying how many were lost.
    /// When no journald listens, the line goes to the fallback descriptor.
    package func write(_ fields: [JournalField], fallbackLine: @autoclosure () -> String) {
        if useJournal {
            let bytes = JournalDatagram.encode(fields)
            var outcome = JournalDatagram.send(bytes, on: socketFD, to: socketPath)
            if outcome == .busy, dropped.withLock({ $0 == 0 }) {
                outcome = sendWhenThereIsRoom(bytes)
            }
            switch outcome {
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

    /// Tries `bytes` again as journald makes room, for up to ``patience``. An unconnected datagram
    /// socket cannot be polled for the reader's room, so it retries at short, growing intervals.
    private func sendWhenThereIsRoom(_ bytes: [UInt8]) -> JournalDatagram.Outcome {
        let deadline = ContinuousClock.now + patience
        var pause = Duration.microseconds(200)
        while ContinuousClock.now < deadline {
            var interval = timespec(tv_sec: 0, tv_nsec: Int(pause / .nanoseconds(1)))
            _ = nanosleep(&interval, nil)
            let outcome = JournalDatagram.send(bytes, on: socketFD, to: socketPath)
            if outcome != .busy { return outcome }
            pause = min(pause * 2, .milliseconds(10))
        }
        return .busy
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
        if JournalDatagram.send(JournalDatagram.encode(notice), on: socketFD, to: socketPath) != .sent {
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
