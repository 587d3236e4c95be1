// Journal entries into the timeline (`relaunchctl journal`): entries as any sender could write
// them, one field a line (NAME=value; __REALTIME_TIMESTAMP=N sets the entry's journal time), entries
// apart by a blank line. Fed to TimelineBuilder and to TimelineStream's two passes, then drawn as
// text and JSON.
// fuzz-build: JournalReview
// fuzz-link: JournalReview RelaunchContract
import JournalReview
import RelaunchContract

let registry = AppRegistry(["checkin-demo", "banca-demo", "countries-demo"].map {
    AppRegistration(app: $0, unit: $0 + ".service")
})

func records(_ text: String) -> [JournalRecord] {
    var out: [JournalRecord] = []
    for block in text.split(separator: "\n\n", omittingEmptySubsequences: true) {
        var fields: [String: String] = [:]
        var realtime: UInt64 = 0
        for line in block.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let name = String(line[..<equals])
            let value = String(line[line.index(after: equals)...])
            if name == "__REALTIME_TIMESTAMP" { realtime = UInt64(value) ?? 0 } else { fields[name] = value }
        }
        out.append(JournalRecord(realtimeUSec: realtime, fields: fields))
    }
    return out
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    // The first byte picks what permissiond's user is believed to be.
    let user: JournalTrust.PermissiondUser = data[0] & 1 == 0 ? .uid(991) : .shownByItsEntries
    let trust = JournalTrust(permissiondUser: user, registry: registry)
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let journal = records(text)

    let built = TimelineBuilder.incidents(from: journal, trust: trust)
    _ = TimelineRenderer.text(built, summary: TimelineSummary(built))

    var plan = TimelineStream.Plan(trust: trust)
    // As `relaunchctl journal` reads: permissiond's entries first, then every matched one.
    for record in journal where TimelineStream.isDaemonEntry(record.messageID) { plan.add(record) }
    var stream = TimelineStream(consume plan)
    var incidents: [Incident] = []
    for record in journal where record.messageID.map(TimelineReport.messageIDs.contains) ?? false {
        guard stream.admit(record) else { continue }
        guard stream.add(record) else { break }
        incidents += stream.takeFinished()
    }
    incidents += stream.finish()
    var writer = TimelineJSONWriter()
    var json: [UInt8] = []
    writer.begin(into: &json)
    for incident in incidents { writer.add(incident, into: &json) }
    writer.end(TimelineSummary(incidents), into: &json)
    return 0
}
