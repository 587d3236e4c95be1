import CSystemd
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Where ``JournalLogHandler``s write: journald via `sd_journal_sendv`, else a fallback descriptor.
///
/// One sink is shared by every handler (``shared``); it never throws and never crashes. When journald
/// is unreachable (no `/run/systemd/journal/socket`, or the send fails) each entry is written as one
/// line to the fallback descriptor (stderr by default), serialized by a lock so lines do not interleave.
public final class JournalSink: Sendable {
    /// The process-wide sink: journald, falling back to stderr.
    public static let shared = JournalSink()

    private let useJournal: Bool
    private let fallbackFD: CInt
    private let fallbackLock = Mutex<Void>(())

    /// Creates a sink.
    /// - Parameters:
    ///   - useJournal: Try journald first (default). `false` writes every entry to `fallbackFD`.
    ///   - fallbackFD: Where lines go when journald is not used or not reachable (default 2, stderr);
    ///     not closed by the sink.
    public init(useJournal: Bool = true, fallbackFD: CInt = 2) {
        self.useJournal = useJournal
        self.fallbackFD = fallbackFD
    }

    /// Whether journald's native socket exists on this machine.
    public static var isJournalReachable: Bool {
        access("/run/systemd/journal/socket", W_OK) == 0
    }

    /// Writes one entry: to journald if possible, else as `fallbackLine` to the fallback descriptor.
    public func write(_ fields: [JournalField], fallbackLine: @autoclosure () -> String) {
        // sd_journal_sendv reports success when the socket is missing, so look for it first.
        if useJournal, Self.isJournalReachable, Self.send(fields) { return }
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
