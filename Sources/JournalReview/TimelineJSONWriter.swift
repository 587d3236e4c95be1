import RelaunchContract
/// Writes the timeline as JSON one incident at a time, so that a long journal's report need not be
/// held: the bytes are those of Foundation's `JSONEncoder` with `[.prettyPrinted, .sortedKeys]` for
/// the whole ``TimelineReport`` (two-space indents, `" : "`, keys in UTF-8 order, `/` written `\/`).
///
/// ```swift
/// var writer = TimelineJSONWriter()
/// var out: [UInt8] = []
/// writer.begin(into: &out)
/// for incident in incidents { writer.add(incident, into: &out) }
/// writer.end(summary, into: &out)
/// ```
package struct TimelineJSONWriter: Sendable {
    private var incidentCount = 0

    /// A writer that has written nothing.
    package init() {}

    /// The document's opening, up to the incidents.
    package func begin(into out: inout [UInt8]) {
        out.append(contentsOf: "{\n  \"incidents\" : [\n".utf8)
    }

    /// The next incident.
    package mutating func add(_ incident: Incident, into out: inout [UInt8]) {
        if incidentCount > 0 { out.append(contentsOf: ",\n".utf8) }
        incidentCount += 1
        Self.indent(2, &out)
        var members = Members.open(level: 2, &out)
        members.key("app", &out)
        Self.string(incident.app, &out)
        members.key("callerUID", &out)
        Self.string(incident.callerUID, &out)
        members.key("changedAtUSec", &out)
        Self.number(incident.changedAtUSec, &out)
        members.key("events", &out)
        Self.array(incident.events, level: 4, &out) { event, out in Self.event(event, level: 4, &out) }
        members.key("host", &out)
        Self.string(incident.host, &out)
        members.key("killDecided", &out)
        out.append(contentsOf: (incident.killDecided ? "true" : "false").utf8)
        members.key("machineID", &out)
        Self.string(incident.machineID, &out)
        members.key("newState", &out)
        Self.string(incident.newState, &out)
        members.key("oldState", &out)
        Self.string(incident.oldState, &out)
        members.key("permission", &out)
        Self.string(incident.permission, &out)
        if let reason = incident.reason {
            members.key("reason", &out)
            Self.string(reason, &out)
        }
        if let unit = incident.unit {
            members.key("unit", &out)
            Self.string(unit, &out)
        }
        members.close(&out)
    }

    /// The end of the incidents, the summary and the document's closing brace (no newline after it).
    /// `missingFromJournal`: how many changes of permissiond's history the journal lacks, when the
    /// review could compare (the summary's `missingFromJournal`; left out when nil).
    package func end(_ summary: TimelineSummary, missingFromJournal: Int? = nil, into out: inout [UInt8]) {
        out.append(contentsOf: "\n  ],\n  \"summary\" : ".utf8)
        var members = Members.open(level: 1, &out)
        members.key("byApp", &out)
        Self.groups(summary.byApp, machineOf: nil, level: 2, &out)
        members.key("byHost", &out)
        let labels = summary.hostLabels
        Self.groups(summary.byHost, machineOf: Dictionary(uniqueKeysWithValues: labels.map { ($0.value, $0.key) }),
                    level: 2, &out)
        members.key("discardsByReason", &out)
        var reasons = Members.open(level: 2, &out)
        for (reason, count) in Self.sortedByKey(summary.discardsByReason) {
            reasons.key(reason, &out)
            Self.number(UInt64(count), &out)
        }
        reasons.close(&out)
        members.key("ignoredByReason", &out)
        var ignored = Members.open(level: 2, &out)
        for (reason, count) in Self.sortedByKey(summary.ignoredByReason) {
            ignored.key(reason, &out)
            Self.number(UInt64(count), &out)
        }
        ignored.close(&out)
        members.key("ignoredEntries", &out)
        Self.number(UInt64(summary.ignoredEntries), &out)
        members.key("incidents", &out)
        Self.number(UInt64(summary.incidents), &out)
        members.key("kills", &out)
        Self.number(UInt64(summary.kills), &out)
        if let missingFromJournal {
            members.key("missingFromJournal", &out)
            Self.number(UInt64(missingFromJournal), &out)
        }
        members.key("relaunchMedianUSec", &out)
        Self.optionalNumber(summary.relaunchMedianUSec, &out)
        members.key("relaunchP95USec", &out)
        Self.optionalNumber(summary.relaunchP95USec, &out)
        members.key("relaunchUSec", &out)
        Self.array(summary.relaunchUSec, level: 3, &out) { value, out in Self.number(value, &out) }
        members.key("restores", &out)
        Self.number(UInt64(summary.restores), &out)
        members.key("sceneSessions", &out)
        var scenes = Members.open(level: 2, &out)
        for (key, counts) in [("byOutcome", summary.all.scenesByOutcome), ("discardsByReason", summary.all.sceneDiscardsByReason)] {
            scenes.key(key, &out)
            var inner = Members.open(level: 3, &out)
            for (name, count) in Self.sortedByKey(counts) {
                inner.key(name, &out)
                Self.number(UInt64(count), &out)
            }
            inner.close(&out)
        }
        scenes.close(&out)
        members.close(&out)
        out.append(contentsOf: "\n}".utf8)
    }

    /// `{ name: totals, ... }` as ``TimelineTotalsJSON`` encodes each.
    private static func groups(
        _ groups: [String: TimelineTotals], machineOf: [String: String]?, level: Int, _ out: inout [UInt8]
    ) {
        var names = Members.open(level: level, &out)
        for (name, totals) in sortedByKey(groups) {
            names.key(name, &out)
            var members = Members.open(level: level + 1, &out)
            members.key("discardsByReason", &out)
            var reasons = Members.open(level: level + 2, &out)
            for (reason, count) in sortedByKey(totals.discardsByReason) {
                reasons.key(reason, &out)
                number(UInt64(count), &out)
            }
            reasons.close(&out)
            members.key("incidents", &out)
            number(UInt64(totals.incidents), &out)
            members.key("kills", &out)
            number(UInt64(totals.kills), &out)
            if let machine = machineOf?[name] {
                members.key("machineID", &out)
                string(machine, &out)
            }
            members.key("relaunchMedianUSec", &out)
            optionalNumber(totals.relaunchMedianUSec, &out)
            members.key("relaunchP95USec", &out)
            optionalNumber(totals.relaunchP95USec, &out)
            members.key("restores", &out)
            number(UInt64(totals.restores), &out)
            members.close(&out)
        }
        names.close(&out)
    }

    private static func event(_ event: TimelineEvent, level: Int, _ out: inout [UInt8]) {
        var members = Members.open(level: level, &out)
        members.key("atUSec", &out)
        number(event.atUSec, &out)
        members.key("fields", &out)
        var fields = Members.open(level: level + 1, &out)
        for (name, value) in sortedByKey(event.fields) {
            fields.key(name, &out)
            string(value, &out)
        }
        fields.close(&out)
        if let invocationID = event.invocationID {
            members.key("invocationID", &out)
            string(invocationID, &out)
        }
        members.key("kind", &out)
        string(event.kind.rawValue, &out)
        members.key("sinceChangeUSec", &out)
        number(event.sinceChangeUSec, &out)
        members.close(&out)
    }

    /// An object being written at `level`: `{`, then each member on a line of its own one level
    /// deeper, then `}` on a line at `level` (an empty object keeps its blank line, as JSONEncoder does).
    private struct Members {
        let level: Int
        var count = 0

        static func open(level: Int, _ out: inout [UInt8]) -> Members {
            out.append(contentsOf: "{\n".utf8)
            return Members(level: level)
        }

        /// Starts the next member: its key and the separator; the caller writes the value.
        mutating func key(_ key: String, _ out: inout [UInt8]) {
            if count > 0 { out.append(contentsOf: ",\n".utf8) }
            count += 1
            TimelineJSONWriter.indent(level + 1, &out)
            TimelineJSONWriter.string(key, &out)
            out.append(contentsOf: " : ".utf8)
        }

        func close(_ out: inout [UInt8]) {
            out.append(UInt8(ascii: "\n"))
            TimelineJSONWriter.indent(level, &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `[`, then one element a line indented at `level`, then `]` on a line one level less.
    private static func array<Element>(
        _ elements: [Element], level: Int, _ out: inout [UInt8], _ write: (Element, inout [UInt8]) -> Void
    ) {
        out.append(contentsOf: "[\n".utf8)
        for (index, element) in elements.enumerated() {
            if index > 0 { out.append(contentsOf: ",\n".utf8) }
            indent(level, &out)
            write(element, &out)
        }
        out.append(UInt8(ascii: "\n"))
        indent(level - 1, &out)
        out.append(UInt8(ascii: "]"))
    }

    private static func sortedByKey<Value>(_ dictionary: [String: Value]) -> [(key: String, value: Value)] {
        dictionary.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    private static func indent(_ level: Int, _ out: inout [UInt8]) {
        for _ in 0..<(2 * level) { out.append(UInt8(ascii: " ")) }
    }

    private static func number(_ value: UInt64, _ out: inout [UInt8]) {
        out.append(contentsOf: String(value).utf8)
    }

    private static func optionalNumber(_ value: UInt64?, _ out: inout [UInt8]) {
        if let value { number(value, &out) } else { out.append(contentsOf: "null".utf8) }
    }

    /// A JSON string as JSONEncoder escapes it (``JSONText``, the one writer of JSON strings).
    private static func string(_ value: String, _ out: inout [UInt8]) {
        JSONText.append(value, to: &out)
    }
}
