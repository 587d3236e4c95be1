import JournalReview
import RelaunchContract
import Testing

/// permissiond's uid on another machine is the one most of its daemon's entries show: one forged
/// entry (dated 1970, so first in journal order) can neither hide the genuine incidents nor add one.
@Suite struct PermissiondUIDTests {
    let shown = JournalTrust(permissiondUser: .shownByItsEntries, registry: JournalMaker.registry)

    func forged(like genuine: [JournalRecord], uid: String) -> JournalRecord {
        var record = genuine.first { $0.messageID == MessageID.permissionChanged.rawValue && $0["_COMM"] == "permissiond" }!
        record.realtimeUSec = 1_000_000
        record.fields["CHANGED_USEC"] = "1000000"
        record.fields["_UID"] = uid
        record.fields["_BOOT_ID"] = String(repeating: "f", count: 32)
        record.fields["APP_ID"] = "checkin-demo"
        return record
    }

    @Test func aForgedEntryFirstInJournalOrderMakesNoGenuineEntryUntrusted() {
        let genuine = JournalMaker.journal(seed: 35, incidents: 12)
        let expected = TimelineBuilder.incidents(from: genuine, trust: shown)
        #expect(expected.count >= 12)
        let withForgery = [forged(like: genuine, uid: "4242")] + genuine
        let incidents = TimelineBuilder.incidents(from: withForgery, trust: shown)
        #expect(incidents == expected)
    }

    @Test func withTheRealUIDItStillAddsAnIncidentOfThatHostOnlyWhenInItsOwnFiles() {
        // In a host's own files the real uid is the host's word (root on it can lie about itself);
        // the review keeps other hosts' files out of it (FleetSources), which this does not show.
        let genuine = JournalMaker.journal(seed: 35, incidents: 12)
        let incidents = TimelineBuilder.incidents(from: [forged(like: genuine, uid: JournalMaker.permissiondUID)] + genuine, trust: shown)
        #expect(incidents.count == TimelineBuilder.incidents(from: genuine, trust: shown).count + 1)
    }

    @Test func aTieKeepsTheFirstUIDMet() {
        var trust = shown
        let genuine = JournalMaker.journal(seed: 7, incidents: 1)
        let first = genuine.first { $0["_COMM"] == "permissiond" }!
        var other = first
        other.fields["_UID"] = "4242"
        trust.learn(first)
        trust.learn(other)
        #expect(trust.judge(first) == .counts(.permissiond))
        #expect(trust.judge(other) == .ignored(.permissionNotFromPermissiondUser))
        trust.learn(other)
        #expect(trust.judge(other) == .counts(.permissiond))
    }
}
