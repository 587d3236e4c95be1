import JournalReview
import RelaunchContract
package import RelaunchctlCore

#if canImport(Glibc)
import Glibc
#endif

/// What `relaunchctl journal` was asked for, whichever reader read the arguments: ArgumentParser
/// (``JournalCommand``) or ``init(plainArguments:)``.
package struct JournalOptions: Equatable, Sendable {
    /// The long option names, declared once for both readers.
    package enum Name {
        package static let since = "since"
        package static let json = "json"
        package static let directory = "directory"
        package static let app = "app"
        package static let file = "file"
        package static let merge = "merge"
        package static let host = "host"
        package static let report = "report"
    }

    package var since: String?
    package var json = false
    package var directory: String?
    package var app: String?
    /// `--file`: read exactly these journal files.
    package var files: [String] = []
    /// `--merge`: the live journal and /var/log/journal/remote.
    package var merge = false
    /// `--host`: only these hosts (hostnames or machine ids); empty for all.
    package var hosts: [String] = []
    /// `--report`: also write the HTML report here.
    package var report: String?

    package init(
        since: String? = nil, json: Bool = false, directory: String? = nil, app: String? = nil,
        files: [String] = [], merge: Bool = false, hosts: [String] = [], report: String? = nil
    ) {
        self.since = since
        self.json = json
        self.directory = directory
        self.app = app
        self.files = files
        self.merge = merge
        self.hosts = hosts
        self.report = report
    }

    /// Why these options cannot be run, for a usage error, or nil when they can.
    package var problem: String? {
        if let app, !AppIDSyntax.isValid(app) {
            return "--app \(Echo.quoted(app)) is not an app id: \(AppIDSyntax.acceptedForm)"
        }
        if let since, TimeSpec.parse(since, now: realtimeMicroseconds()) == nil {
            return "cannot read --since \(Echo.quoted(since)); use @EPOCH, -10min, -30s, -2h, -1d or 'YYYY-MM-DD HH:MM:SS'"
        }
        if [directory != nil, !files.isEmpty, merge].filter({ $0 }).count > 1 {
            return "use only one of --directory, --file and --merge"
        }
        if let directory, Self.fileType(directory) != S_IFDIR {
            return "--directory \(Echo.quoted(directory)) is not a folder of journal files"
        }
        if let file = files.first(where: { Self.fileType($0) != S_IFREG }) {
            return "--file \(Echo.quoted(file)) is not a journal file"
        }
        if hosts.contains(where: \.isEmpty) {
            return "--host needs a hostname or a machine id"
        }
        if report?.isEmpty == true {
            return "--report needs a file name"
        }
        return nil
    }

    /// The type bits (`S_IFMT`) of the file at `path`, following links; nil when there is none.
    private static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    /// Where to read.
    var place: JournalPlace {
        if let directory { return .directory(directory) }
        if !files.isEmpty { return .files(files) }
        return merge ? .merge : .live
    }

    /// Prints the timeline and summary, as text or JSON, and writes the report when asked.
    package func run() throws(CLIError) {
        FileLimit.raise()
        let sinceUSec = since.flatMap { TimeSpec.parse($0, now: realtimeMicroseconds()) }
        if let report, !json {
            try Self.writeReport(to: report, place: place, sinceUSec: sinceUSec, app: app, hosts: hosts)
        } else if json {
            try Self.printJSON(place: place, sinceUSec: sinceUSec, app: app, hosts: hosts, report: report)
        } else {
            try Self.printText(place: place, sinceUSec: sinceUSec, since: since, app: app, hosts: hosts)
        }
    }

    /// Each incident's block as soon as it is complete (with its host when the review has more
    /// than one), then the summary line and, for a fleet, the per-host and per-app tables.
    private static func printText(
        place: JournalPlace, sinceUSec: UInt64?, since: String?, app: String?, hosts: [String]
    ) throws(CLIError) {
        var summary = TimelineSummary()
        var showHost = false
        var history = HistoryCheck(place: place, hosts: hosts)
        let ignored = try JournalSource.incidents(place: place, sinceUSec: sinceUSec, hosts: hosts) {
            showHost = $0.machines.count > 1
        } _: { incident in
            guard app == nil || incident.app == app else { return }
            summary.add(incident)
            history.note(incident)
            print(TimelineRenderer.text(incident, number: summary.incidents, showHost: showHost), terminator: "")
        }
        summary.addIgnored(ignored)
        if summary.incidents == 0 {
            print("no permission changes in the journal" + (app.map { " for \($0)" } ?? "") + (since.map { " since \($0)" } ?? ""))
        }
        print(TimelineRenderer.summaryLine(summary))
        print(TimelineRenderer.fleetTables(summary), terminator: "")
        if let line = TimelineRenderer.ignoredLine(summary) { print(line) }
        if let missing = try history.missing(sinceUSec: sinceUSec, app: app) {
            for line in HistoryCheck.lines(missing) { print(line) }
        }
    }

    /// The report as JSON, written an incident at a time; and the HTML report when `report` is set.
    private static func printJSON(
        place: JournalPlace, sinceUSec: UInt64?, app: String?, hosts: [String], report: String?
    ) throws(CLIError) {
        var summary = TimelineSummary()
        var writer = TimelineJSONWriter()
        var history = HistoryCheck(place: place, hosts: hosts)
        var out: [UInt8] = []
        writer.begin(into: &out)
        let ignored = try JournalSource.incidents(place: place, sinceUSec: sinceUSec, hosts: hosts) { incident in
            guard app == nil || incident.app == app else { return }
            summary.add(incident)
            history.note(incident)
            writer.add(incident, into: &out)
            if out.count >= 1 << 16 {
                writeStandardOutput(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        summary.addIgnored(ignored)
        if let report {
            try ReportFile.write(FleetReport.html(summary, source: place.name), to: report)
        }
        let missing = try history.missing(sinceUSec: sinceUSec, app: app)
        writer.end(summary, missingFromJournal: missing?.count, into: &out)
        out.append(UInt8(ascii: "\n"))
        writeStandardOutput(out)
    }

    /// The HTML report alone: the summary of every incident, written to `path`; one line on stdout.
    private static func writeReport(
        to path: String, place: JournalPlace, sinceUSec: UInt64?, app: String?, hosts: [String]
    ) throws(CLIError) {
        var summary = TimelineSummary()
        let ignored = try JournalSource.incidents(place: place, sinceUSec: sinceUSec, hosts: hosts) { incident in
            guard app == nil || incident.app == app else { return }
            summary.add(incident)
        }
        summary.addIgnored(ignored)
        try ReportFile.write(FleetReport.html(summary, source: place.name), to: path)
        print("wrote \(path): \(TimelineRenderer.summaryLine(summary).dropFirst("summary: ".count)), "
            + "\(summary.hostCount) \(summary.hostCount == 1 ? "host" : "hosts")")
    }

    private static func writeStandardOutput(_ bytes: [UInt8]) {
        print(String(decoding: bytes, as: UTF8.self), terminator: "")
    }
}
