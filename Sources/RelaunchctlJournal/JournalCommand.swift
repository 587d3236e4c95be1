package import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// `relaunchctl journal`: the relaunch timeline, from the live journal or an exported folder.
///
/// `relaunchctl` reads plain arguments of this command without ArgumentParser
/// (``JournalOptions/init(plainArguments:)``); this type reads all others, and prints help and errors.
package struct JournalCommand: AsyncParsableCommand {
    /// The subcommand's name, `journal`.
    package static let name = "journal"

    package static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "Review relaunches: each permission change as a timeline, then a summary.",
        discussion: """
        Each incident reads: permission changed (who, what, old → new) → kill sent → systemd saw \
        the process die (signal) → restart scheduled → new process started → each controller \
        restored and how → restoration finished → app launched → ready, with the time since the \
        change on every line. The summary counts incidents, kills, restores and discards by reason, \
        and gives the relaunch time (process exit to READY) as median and p95.

        Only entries journald vouches for count: permissiond's from permissiond.service as its \
        user, an app's from its registered unit, systemd's from PID 1. Others with the same \
        MESSAGE_IDs are left out, and a last line counts them by reason.

        Reads the live journal (every namespace: permissiond and the apps log to their own), or with \
        --directory a folder of journal files such as the one \
        `scripts/sandbox down --journal-out DIR` exports (from this or another machine), or with \
        --file exactly those files, or with --merge the live journal and /var/log/journal/remote.

        As root on the host, it also compares the incidents with permissiond's history and names \
        every change the journal lacks.

        Fleet review: systemd-journal-remote writes one remote-HOST.journal per host; point \
        --directory at its folder. Incidents are kept apart by host (machine and boot id, as \
        journald recorded them), never joined across hosts; with more than one host each incident \
        names its host and the summary adds per-host and per-app tables, worst first. --host \
        selects hosts; --report writes one self-contained HTML page to look at.
        """
    )

    @Option(name: .customLong(JournalOptions.Name.since), parsing: .unconditional,
            help: ArgumentHelp("Only changes since TIME: @EPOCH, -10min/-30s/-2h/-1d, or 'YYYY-MM-DD HH:MM:SS' (local).",
                               valueName: "time"))
    var since: String?

    @Flag(name: .customLong(JournalOptions.Name.json), help: "Print the timeline and summary as JSON.")
    var json = false

    @Option(name: .customLong(JournalOptions.Name.directory),
            help: ArgumentHelp("Read the journal files in DIR instead of the live journal.", valueName: "dir"))
    var directory: String?

    @Option(name: .customLong(JournalOptions.Name.app), help: ArgumentHelp("Only the incidents of this app id.", valueName: "app"))
    var app: String?

    @Option(name: .customLong(JournalOptions.Name.file), parsing: .upToNextOption,
            help: ArgumentHelp("Read exactly these journal files (e.g. remote-HOST.journal).", valueName: "file"))
    var files: [String] = []

    @Flag(name: .customLong(JournalOptions.Name.merge),
          help: "Read the live journal and /var/log/journal/remote (systemd-journal-remote's), as journalctl --merge.")
    var merge = false

    @Option(name: .customLong(JournalOptions.Name.host),
            help: ArgumentHelp("Only this host: a hostname or a machine id (repeatable).", valueName: "host"))
    var hosts: [String] = []

    @Option(name: .customLong(JournalOptions.Name.report),
            help: ArgumentHelp("Write a self-contained HTML report (summary, relaunch plot, discards per host) to FILE; "
                               + "prints one line instead of the timeline, unless --json.", valueName: "file"))
    var report: String?

    package init() {}

    /// The options as read.
    package var options: JournalOptions {
        JournalOptions(since: since, json: json, directory: directory, app: app,
                       files: files, merge: merge, hosts: hosts, report: report)
    }

    package func validate() throws {
        if let problem = options.problem {
            throw ValidationError(problem)
        }
    }

    package func run() async throws {
        try options.run()
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
