import ArgumentParser
import ScenarioKit
import JournalReview
import RelaunchContract

#if canImport(Glibc)
import Glibc
#endif

/// `relaunchctl journal`: the relaunch timeline, from the live journal or an exported folder.
struct JournalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Review relaunches: each permission change as a timeline, then a summary.",
        discussion: """
        Each incident reads: permission changed (who, what, old → new) → kill sent → systemd saw \
        the process die (signal) → restart scheduled → new process started → each controller \
        restored and how → restoration finished → app launched → ready, with the time since the \
        change on every line. The summary counts incidents, kills, restores and discards by reason, \
        and gives the relaunch time (process exit to READY) as median and p95.

        Reads the live journal, or with --directory a folder of journal files such as the one \
        `scripts/sandbox down --journal-out DIR` exports (from this or another machine).
        """
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("Only changes since TIME: @EPOCH, -10min/-30s/-2h/-1d, or 'YYYY-MM-DD HH:MM:SS' (local).",
                               valueName: "time"))
    var since: String?

    @Flag(help: "Print the timeline and summary as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Read the journal files in DIR instead of the live journal.", valueName: "dir"))
    var directory: String?

    @Option(help: ArgumentHelp("Only the incidents of this app id.", valueName: "app"))
    var app: String?

    func validate() throws {
        if let app, !AppIDSyntax.isValid(app) {
            throw ValidationError("--app \(Echo.quoted(app)) is not an app id: \(AppIDSyntax.acceptedForm)")
        }
        if let since, TimeSpec.parse(since, now: realtimeMicroseconds()) == nil {
            throw ValidationError("cannot read --since \(Echo.quoted(since)); use @EPOCH, -10min, -30s, -2h, -1d or 'YYYY-MM-DD HH:MM:SS'")
        }
        if let directory {
            var info = stat()
            guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                throw ValidationError("--directory \(Echo.quoted(directory)) is not a folder of journal files")
            }
        }
    }

    func run() async throws {
        let sinceUSec = since.flatMap { TimeSpec.parse($0, now: realtimeMicroseconds()) }
        if json {
            try Self.printJSON(directory: directory, sinceUSec: sinceUSec, app: app)
        } else {
            try Self.printText(directory: directory, sinceUSec: sinceUSec, since: since, app: app)
        }
    }

    /// Each incident's block as soon as it is complete, then the summary line.
    private static func printText(directory: String?, sinceUSec: UInt64?, since: String?, app: String?) throws(CLIError) {
        var summary = TimelineSummary()
        try JournalSource.incidents(directory: directory, sinceUSec: sinceUSec) { incident in
            guard app == nil || incident.app == app else { return }
            summary.add(incident)
            print(TimelineRenderer.text(incident, number: summary.incidents), terminator: "")
        }
        if summary.incidents == 0 {
            print("no permission changes in the journal" + (app.map { " for \($0)" } ?? "") + (since.map { " since \($0)" } ?? ""))
        }
        print(TimelineRenderer.summaryLine(summary))
    }

    /// The report as JSON, written an incident at a time.
    private static func printJSON(directory: String?, sinceUSec: UInt64?, app: String?) throws(CLIError) {
        var summary = TimelineSummary()
        var writer = TimelineJSONWriter()
        var out: [UInt8] = []
        writer.begin(into: &out)
        try JournalSource.incidents(directory: directory, sinceUSec: sinceUSec) { incident in
            guard app == nil || incident.app == app else { return }
            summary.add(incident)
            writer.add(incident, into: &out)
            if out.count >= 1 << 16 {
                writeStandardOutput(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        writer.end(summary, into: &out)
        out.append(UInt8(ascii: "\n"))
        writeStandardOutput(out)
    }

    private static func writeStandardOutput(_ bytes: [UInt8]) {
        print(String(decoding: bytes, as: UTF8.self), terminator: "")
    }
}

/// Parses the --since forms into µs since the epoch.
enum TimeSpec {
    static func parse(_ text: String, now: UInt64) -> UInt64? {
        if text.hasPrefix("@") {
            let parts = text.dropFirst().split(separator: ".", maxSplits: 1)
            guard let seconds = parts.first.flatMap({ UInt64($0) }) else { return nil }
            var micros: UInt64 = 0
            if parts.count == 2 {
                let digits = String(parts[1].prefix(6))
                guard let value = UInt64(digits) else { return nil }
                micros = value * UInt64(pow10(6 - digits.count))
            }
            let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
            return overflow ? nil : scaled + micros
        }
        if text.hasPrefix("-") {
            let body = text.dropFirst()
            let digits = body.prefix { $0.isNumber }
            guard let amount = UInt64(digits) else { return nil }
            let units: [String: UInt64] = ["s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86_400]
            guard let unit = units[String(body.dropFirst(digits.count))] else { return nil }
            let (inSeconds, overflowSeconds) = amount.multipliedReportingOverflow(by: unit)
            let (span, overflowMicros) = inSeconds.multipliedReportingOverflow(by: 1_000_000)
            guard !overflowSeconds, !overflowMicros else { return nil }
            return now > span ? now - span : 0
        }
        let fields = text.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" || $0 == "T" }).map { Int32($0) }
        guard (3...6).contains(fields.count), fields.allSatisfy({ $0 != nil }) else { return nil }
        let values = fields.map { $0! } + Array(repeating: 0, count: 6 - fields.count)
        var parts = tm()
        parts.tm_year = values[0] - 1900
        parts.tm_mon = values[1] - 1
        parts.tm_mday = values[2]
        parts.tm_hour = values[3]
        parts.tm_min = values[4]
        parts.tm_sec = values[5]
        parts.tm_isdst = -1
        let seconds = mktime(&parts)
        guard seconds >= 0 else { return nil }
        return UInt64(seconds) * 1_000_000
    }

    private static func pow10(_ n: Int) -> Int {
        (0..<n).reduce(1) { value, _ in value * 10 }
    }
}
