import FoundationEssentials
import JournalReview
import RelaunchContract
import Testing

/// One journal as two hosts wrote it: the same entries, the same units and invocation ids, each copy
/// with its own `_HOSTNAME`, `_MACHINE_ID` and `_BOOT_ID` (hosts cloned from one image, or one journal
/// sent through systemd-journal-remote twice), interleaved in time order as a receiver's files merge.
enum TwoHosts {
    static let hosts = [("fleet-a", String(repeating: "a", count: 32), String(repeating: "1", count: 32)),
                        ("fleet-b", String(repeating: "b", count: 32), String(repeating: "2", count: 32))]

    static func journal(seed: UInt64, incidents: Int, killShare: Double = 0.88) -> [JournalRecord] {
        let one = JournalMaker.journal(seed: seed, incidents: incidents, killShare: killShare)
        var both: [(record: JournalRecord, order: Int)] = []
        for index in hosts.indices {
            for record in copy(one, host: index) { both.append((record, both.count)) }
        }
        both.sort { ($0.record.realtimeUSec, $0.order) < ($1.record.realtimeUSec, $1.order) }
        return both.map(\.record)
    }

    /// `records` as host number `index` wrote them: its identity, and journal times 3 µs × `index`
    /// later, so that the hosts' entries interleave.
    static func copy(_ records: [JournalRecord], host index: Int) -> [JournalRecord] {
        let (host, machine, boot) = hosts[index]
        return records.map { record in
            var record = record
            record.fields["_HOSTNAME"] = host
            record.fields["_MACHINE_ID"] = machine
            record.fields["_BOOT_ID"] = boot
            record.realtimeUSec += UInt64(3 * index)
            return record
        }
    }
}

@Suite("Journal timeline: hosts")
struct FleetTimelineTests {
    @Test("Two hosts with the same invocation ids give each host its own incidents and kills", arguments: [1, 2, 3, 17])
    func neverJoinedAcrossHosts(seed: UInt64) {
        let one = JournalMaker.journal(seed: seed, incidents: 12)
        let records = TwoHosts.journal(seed: seed, incidents: 12)
        let single = TimelineBuilder.incidents(from: one)
        for incidents in [TimelineBuilder.incidents(from: records), StreamedTimeline(records).incidents] {
            #expect(incidents.count == 2 * single.count)
            for (index, (host, machine, _)) in TwoHosts.hosts.enumerated() {
                let own = incidents.filter { $0.host == host }
                #expect(own.allSatisfy { $0.machineID == machine })
                // Each host's incidents are exactly those of its journal alone: nothing joined from the other.
                #expect(own == TimelineBuilder.incidents(from: TwoHosts.copy(one, host: index)))
            }
            let summary = TimelineSummary(incidents)
            let singleSummary = TimelineSummary(single)
            #expect(summary.kills == 2 * singleSummary.kills)
            #expect(summary.hostCount == 2)
            #expect(summary.byHost["fleet-a"]?.kills == singleSummary.kills)
            #expect(summary.byHost["fleet-b"]?.kills == singleSummary.kills)
            #expect(summary.byApp["checkin-demo"]?.incidents == 2 * (singleSummary.byApp["checkin-demo"]?.incidents ?? 0))
        }
    }

    @Test("One incident, two hosts: two incidents, each with one kill and one restoration")
    func adversarialOneIncident() {
        let records = TwoHosts.journal(seed: 5, incidents: 1, killShare: 1)
        let incidents = TimelineBuilder.incidents(from: records)
        #expect(incidents.map(\.host) == ["fleet-a", "fleet-b"])
        for incident in incidents {
            #expect(incident.events.filter { $0.kind == .killSent }.count == 1)
            #expect(incident.events.filter { $0.kind == .processExited }.count == 1)
            #expect(incident.events.filter { $0.kind == .launched }.count <= 1)
        }
        #expect(TimelineSummary(incidents).kills == 2)
    }

    @Test("The text names each incident's host when there is more than one, and adds the tables")
    func textShowsHosts() {
        let incidents = TimelineBuilder.incidents(from: TwoHosts.journal(seed: 3, incidents: 4))
        let text = TimelineRenderer.text(incidents, summary: TimelineSummary(incidents))
        #expect(text.contains("host fleet-a  "))
        #expect(text.contains("host fleet-b  "))
        #expect(text.contains("\nhost "))
        #expect(text.contains("\napp "))
        let one = incidents.filter { $0.host == "fleet-a" }
        let single = TimelineRenderer.text(one, summary: TimelineSummary(one))
        #expect(!single.contains("host fleet-a"))
    }

    @Test("The JSON writer's bytes are JSONEncoder's with hosts, byHost and byApp")
    func jsonWithHosts() throws {
        let records = TwoHosts.journal(seed: 9, incidents: 6)
        let report = TimelineReport(records: records)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let encoded = String(decoding: try encoder.encode(report), as: UTF8.self)
        var writer = TimelineJSONWriter()
        var out: [UInt8] = []
        writer.begin(into: &out)
        for incident in report.incidents { writer.add(incident, into: &out) }
        writer.end(report.summary, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == encoded)
        #expect(encoded.contains("\"byHost\" : {\n      \"fleet-a\" : {"))
        #expect(encoded.contains("\"machineID\" : \"" + String(repeating: "b", count: 32) + "\""))
    }

    @Test("The report is one page: no script, nothing fetched, the plots inline")
    func reportIsSelfContained() {
        let incidents = TimelineBuilder.incidents(from: TwoHosts.journal(seed: 4, incidents: 40))
        let html = FleetReport.html(TimelineSummary(incidents), source: "the journal files in <dir>")
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("http://") || html.components(separatedBy: "http://").count - 1 == html.components(separatedBy: "xmlns=\"http://www.w3.org/2000/svg\"").count - 1)
        #expect(!html.contains("https://"))
        #expect(html.components(separatedBy: "<svg").count - 1 == 2 || html.contains("No saved state was discarded"))
        #expect(html.contains("&lt;dir&gt;"))
        #expect(html.contains("fleet-a") && html.contains("fleet-b"))
    }

}
