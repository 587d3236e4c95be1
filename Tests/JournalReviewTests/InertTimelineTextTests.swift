import JournalReview
import RelaunchContract
import Testing

/// Issue 34: every field of the text timeline came from the journal, a remote host's too. An entry
/// can hold an escape sequence, a carriage return or a line feed; the text shows it escaped and
/// keeps its own lines, so no host, app or field can drive the terminal or forge a line.
@Suite("Journal timeline: text is inert")
struct InertTimelineTextTests {
    static let attack = "\u{1B}]0;pwned\u{07}\u{1B}[2J"
    static let shown = #"\x1b]0;pwned\a\x1b[2J"#

    /// The C0 controls but the line feed, DEL and the C1 controls in `text`.
    static func rawControls(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    /// `incidents` with the attack (and a forged line: "\nincident 99 …") in every string a journal
    /// entry supplied: host, machine, app, permission, states, uid, unit and every event's fields.
    static func attacked(_ incidents: [Incident]) -> [Incident] {
        let forged = "\r\nincident 99  forged" + attack + "\u{9B}2J\u{7F}"
        return incidents.map { incident in
            var incident = incident
            incident.host += forged
            incident.machineID += forged
            incident.app += forged
            incident.permission += forged
            incident.oldState += forged
            incident.newState += forged
            incident.callerUID += forged
            incident.events = incident.events.map { event in
                var event = event
                event.fields = event.fields.mapValues { $0 + forged }
                return event
            }
            return incident
        }
    }

    @Test("Every field of every kind of step, the hosts, apps and discard reasons: escaped, and no line forged", arguments: [3, 11])
    func everyField(seed: UInt64) {
        let plain = TimelineBuilder.incidents(from: TwoHosts.journal(seed: seed, incidents: 8, killShare: 0.7))
        let attacked = Self.attacked(plain)
        let before = TimelineRenderer.text(plain, summary: TimelineSummary(plain))
        let text = TimelineRenderer.text(attacked, summary: TimelineSummary(attacked))
        #expect(Self.rawControls(in: text).isEmpty, "\(text)")
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count
                == before.split(separator: "\n", omittingEmptySubsequences: false).count, "\(text)")
        #expect(!text.contains("\nincident 99"))
        #expect(text.contains(#"fleet-a\r\nincident 99  forged"# + Self.shown + #"\xc2\x9b2J\x7f"#))
        // Every kind of step drew a field of its own, escaped.
        let kinds = Set(plain.flatMap(\.events).map(\.kind))
        #expect(kinds.count >= 8, "the journal has \(kinds) kinds of step")
        for line in text.split(separator: "\n") where line.hasPrefix("  +") {
            #expect(line.contains(Self.shown), "\(line)")
        }
    }

    @Test("The per-host and per-app tables pad the escaped names: columns line up")
    func tables() {
        var incidents = TimelineBuilder.incidents(from: TwoHosts.journal(seed: 4, incidents: 4))
        for index in incidents.indices where incidents[index].host == "fleet-b" {
            incidents[index].host = "fleet-" + Self.attack
        }
        let tables = TimelineRenderer.fleetTables(TimelineSummary(incidents))
        #expect(Self.rawControls(in: tables).isEmpty, "\(tables)")
        let hostTable = tables.split(separator: "\n").prefix(3).map(Array.init)
        #expect(hostTable.contains { String($0).hasPrefix("fleet-" + Self.shown + "  ") }, "\(tables)")
        // Each row's count of incidents ends where the header's "incidents" does.
        let header = String(hostTable[0])
        let incidentsEnd = header.distance(from: header.startIndex, to: header.firstRange(of: "incidents")!.upperBound)
        for row in hostTable {
            #expect(row.count > incidentsEnd && row[incidentsEnd - 1] != " " && row[incidentsEnd] == " ", "\(String(row))")
        }
    }

    @Test("The summary line's discard reasons come from apps' entries: escaped")
    func summaryLine() {
        var incidents = TimelineBuilder.incidents(from: TwoHosts.journal(seed: 2, incidents: 6, killShare: 1))
        var discard = incidents[0].events[0]
        discard.kind = .discarded
        discard.fields = ["REASON": "corrupt" + Self.attack]
        incidents[0].events.append(discard)
        let line = TimelineRenderer.summaryLine(TimelineSummary(incidents))
        #expect(Self.rawControls(in: line).isEmpty, "\(line)")
        #expect(line.contains("corrupt" + Self.shown + " 1"), "\(line)")
    }
}
