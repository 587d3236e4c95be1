import JournalReview
import RelaunchContract
package import ScenarioKit

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
    }

    package var since: String?
    package var json = false
    package var directory: String?
    package var app: String?

    package init(since: String? = nil, json: Bool = false, directory: String? = nil, app: String? = nil) {
        self.since = since
        self.json = json
        self.directory = directory
        self.app = app
    }

    /// Why these options cannot be run, for a usage error, or nil when they can.
    package var problem: String? {
        if let app, !AppIDSyntax.isValid(app) {
            return "--app \(Echo.quoted(app)) is not an app id: \(AppIDSyntax.acceptedForm)"
        }
        if let since, TimeSpec.parse(since, now: realtimeMicroseconds()) == nil {
            return "cannot read --since \(Echo.quoted(since)); use @EPOCH, -10min, -30s, -2h, -1d or 'YYYY-MM-DD HH:MM:SS'"
        }
        if let directory {
            var info = stat()
            guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                return "--directory \(Echo.quoted(directory)) is not a folder of journal files"
            }
        }
        return nil
    }

    /// Prints the timeline and summary, as text or JSON.
    package func run() throws(CLIError) {
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
        let ignored = try JournalSource.incidents(directory: directory, sinceUSec: sinceUSec) { incident in
            guard app == nil || incident.app == app else { return }
            summary.add(incident)
            print(TimelineRenderer.text(incident, number: summary.incidents), terminator: "")
        }
        summary.addIgnored(ignored)
        if summary.incidents == 0 {
            print("no permission changes in the journal" + (app.map { " for \($0)" } ?? "") + (since.map { " since \($0)" } ?? ""))
        }
        print(TimelineRenderer.summaryLine(summary))
        if let line = TimelineRenderer.ignoredLine(summary) { print(line) }
    }

    /// The report as JSON, written an incident at a time.
    private static func printJSON(directory: String?, sinceUSec: UInt64?, app: String?) throws(CLIError) {
        var summary = TimelineSummary()
        var writer = TimelineJSONWriter()
        var out: [UInt8] = []
        writer.begin(into: &out)
        let ignored = try JournalSource.incidents(directory: directory, sinceUSec: sinceUSec) { incident in
            guard app == nil || incident.app == app else { return }
            summary.add(incident)
            writer.add(incident, into: &out)
            if out.count >= 1 << 16 {
                writeStandardOutput(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        summary.addIgnored(ignored)
        writer.end(summary, into: &out)
        out.append(UInt8(ascii: "\n"))
        writeStandardOutput(out)
    }

    private static func writeStandardOutput(_ bytes: [UInt8]) {
        print(String(decoding: bytes, as: UTF8.self), terminator: "")
    }
}
