package import Logging

#if canImport(Glibc)
import Glibc
#endif

/// A swift-log `LogHandler` writing structured entries to the systemd journal.
///
/// Each entry carries `MESSAGE`, `PRIORITY` (from the level), `CODE_FILE`, `CODE_LINE`, `CODE_FUNC`,
/// `SYSLOG_IDENTIFIER`, `ERROR` when the event has one, and every metadata key as a field named by
/// ``JournalFieldName/sanitize(_:)``. Give an entry a catalog id with the metadata key
/// ``messageIDKey`` (`"MESSAGE_ID"`, 32 lowercase hex digits). Values keep their newlines.
///
/// The handler is a cheap value; all handlers share a ``JournalSink``, which falls back to stderr
/// when journald cannot be reached.
///
/// ```swift
/// LoggingSystem.bootstrap { label in JournalLogHandler(label: label) }
/// logger.notice("app launched", metadata: [JournalLogHandler.messageIDKey: "0c3e…", "LAUNCH_OUTCOME": "fresh"])
/// ```
package struct JournalLogHandler: LogHandler {
    /// The metadata key whose value becomes the entry's `MESSAGE_ID`.
    package static let messageIDKey = "MESSAGE_ID"

    /// Field names the handler writes itself; metadata mapping to one of these is written as `METADATA_<NAME>`.
    package static let reservedFieldNames: Set<String> = [
        "MESSAGE", "PRIORITY", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "SYSLOG_IDENTIFIER",
    ]

    /// The logger's label (as given to `LoggingSystem.bootstrap`).
    package let label: String
    /// `SYSLOG_IDENTIFIER` of every entry: by default the executable's name.
    package var identifier: String
    /// The minimum level this handler writes.
    package var logLevel: Logger.Level = .info
    /// Metadata added to every entry of this handler.
    package var metadata: Logger.Metadata = [:]
    /// Supplies contextual metadata (e.g. task-local) at each log call.
    package var metadataProvider: Logger.MetadataProvider?

    private let sink: JournalSink

    /// Creates a handler.
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - identifier: `SYSLOG_IDENTIFIER`; defaults to the executable's name.
    ///   - sink: Where entries go; defaults to ``JournalSink/shared``.
    ///   - metadataProvider: Contextual metadata merged between handler and event metadata.
    package init(
        label: String,
        identifier: String? = nil,
        sink: JournalSink = .shared,
        metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider
    ) {
        self.label = label
        self.identifier = identifier ?? Self.executableName
        self.sink = sink
        self.metadataProvider = metadataProvider
    }

    /// Handler metadata by key.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes `event` (handler → provider → event metadata, the later winning on equal keys).
    package func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let own = event.metadata { merged.merge(own) { $1 } }
        let fields = Self.fields(
            level: event.level, message: event.message.description, metadata: merged,
            error: event.error, file: event.file, function: event.function, line: event.line,
            identifier: identifier
        )
        sink.write(fields, fallbackLine: Self.fallbackLine(fields))
    }

    /// The journal fields for one entry, in the order they are sent (pure; no I/O).
    ///
    /// Order: `MESSAGE`, `PRIORITY`, `CODE_FILE`, `CODE_LINE`, `CODE_FUNC`, `SYSLOG_IDENTIFIER`,
    /// `ERROR` (if any), then metadata sorted by key. Keys that sanitize to nothing (empty) are skipped.
    package static func fields(
        level: Logger.Level,
        message: String,
        metadata: Logger.Metadata,
        error: (any Error)? = nil,
        file: String,
        function: String,
        line: UInt,
        identifier: String
    ) -> [JournalField] {
        var fields = [
            JournalField("MESSAGE", message),
            JournalField("PRIORITY", String(priority(of: level))),
            JournalField("CODE_FILE", file),
            JournalField("CODE_LINE", String(line)),
            JournalField("CODE_FUNC", function),
            JournalField("SYSLOG_IDENTIFIER", identifier),
        ]
        if let error { fields.append(JournalField("ERROR", String(describing: error))) }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            guard var name = JournalFieldName.sanitize(key) else { continue }
            if reservedFieldNames.contains(name) { name = "METADATA_" + name }
            fields.append(JournalField(name, value.description))
        }
        return fields
    }

    /// The syslog priority of a swift-log level (`critical` 2 … `debug`/`trace` 7).
    package static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .critical: 2
        case .error: 3
        case .warning: 4
        case .notice: 5
        case .info: 6
        case .debug, .trace: 7
        }
    }

    /// The line written when journald is unreachable: `identifier[pid]: <priority> message KEY=value …`.
    static func fallbackLine(_ fields: [JournalField]) -> String {
        let skipped: Set<String> = ["MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC"]
        let extra = fields.filter { !skipped.contains($0.name) }.map(\.description)
        let head = "\(fields.first(named: "SYSLOG_IDENTIFIER") ?? "?")[\(getpid())]: "
            + "<\(fields.first(named: "PRIORITY") ?? "?")> \(fields.first(named: "MESSAGE") ?? "")"
        return ([head] + extra).joined(separator: " ")
    }

    private static var executableName: String {
        guard let first = CommandLine.arguments.first, !first.isEmpty else { return "swift" }
        return first.split(separator: "/").last.map(String.init) ?? first
    }
}
