import JournalReview
import Testing

/// The receiver's host table and the grouping of a folder's files by it (docs/FLEET.md).
@Suite struct FleetHostTableTests {
    let a = String(repeating: "a", count: 32)
    let b = String(repeating: "b", count: 32)

    @Test func readsPinsCommentsAndTheMarkerOfFilesFromBeforeCertificates() throws {
        let table = try FleetHostTable(parsing: """
            # certificate-name machine-id hostname
            fleet-a \(a) fleet-a

            10.213.0.11\t\(a)  fleet-a before-certificates
            web1.example.net \(b) web1
            """)
        #expect(table.pins["fleet-a"] == .init(machineID: a, hostname: "fleet-a"))
        #expect(table.pins["10.213.0.11"] == .init(machineID: a, hostname: "fleet-a"))
        #expect(table.pins["web1.example.net"] == .init(machineID: b, hostname: "web1"))
        #expect(table.machineIDs == [a, b])
        #expect(table.hostnames == ["fleet-a", "web1"])
    }

    @Test(arguments: [
        ("fleet-a", "line 1: expected NAME MACHINE_ID HOSTNAME [before-certificates]"),
        ("fleet-a 123 fleet-a", "line 1: '123' is not a machine id (32 hex digits)"),
        ("fleet/a \(String(repeating: "a", count: 32)) fleet-a", "line 1: 'fleet/a' is not a certificate name"),
        ("fleet-a \(String(repeating: "a", count: 32)) fleet-a extra", "line 1: expected NAME MACHINE_ID HOSTNAME [before-certificates]"),
        ("x \(String(repeating: "a", count: 32)) x\nx \(String(repeating: "b", count: 32)) x", "line 2: 'x' is pinned twice"),
    ])
    func aBadLineIsNamedWithWhatIsWrong(text: String, message: String) {
        #expect(throws: FleetHostTable.ParseError.self) { try FleetHostTable(parsing: text) }
        do {
            _ = try FleetHostTable(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func certificateNamesComeFromJournalRemotesFileNamesAlone() {
        #expect(FleetHostTable.certificateName(ofFile: "remote-fleet-a.journal") == "fleet-a")
        #expect(FleetHostTable.certificateName(ofFile: "remote-web1.example.net@0123-0000000000000001-0005f0.journal") == "web1.example.net")
        #expect(FleetHostTable.certificateName(ofFile: "remote-fleet-a@0005f0-abcdef.journal~") == "fleet-a")
        #expect(FleetHostTable.certificateName(ofFile: "system.journal") == nil)
        #expect(FleetHostTable.certificateName(ofFile: "remote-.journal") == nil)
        #expect(FleetHostTable.certificateName(ofFile: "remote-fleet-a.journal.tmp") == nil)
    }

    @Test func filesArePinnedByTheTableOfTheirOwnFolderOnly() throws {
        let table = try FleetHostTable(parsing: "fleet-a \(a) fleet-a\nfleet-b \(b) fleet-b\n")
        let sources = FleetSources(files: [
            "/r/remote-fleet-b.journal", "/r/remote-fleet-a@1-2-3.journal", "/r/remote-fleet-a.journal",
            "/r/remote-10.0.0.66.journal", "/r/system.journal", "/other/remote-fleet-a.journal",
        ], tables: ["/r": table])
        #expect(sources.bound.map(\.name) == ["fleet-a", "fleet-b"])
        #expect(sources.bound[0].files == ["/r/remote-fleet-a.journal", "/r/remote-fleet-a@1-2-3.journal"])
        #expect(sources.bound[0].pin.machineID == a)
        #expect(sources.unbound == ["/other/remote-fleet-a.journal", "/r/remote-10.0.0.66.journal", "/r/system.journal"])
        // An unbound file may claim no pinned host, by machine id or by hostname.
        #expect(!sources.unboundAdmits(machineID: a, hostname: "elsewhere"))
        #expect(!sources.unboundAdmits(machineID: String(repeating: "c", count: 32), hostname: "fleet-b"))
        #expect(sources.unboundAdmits(machineID: String(repeating: "c", count: 32), hostname: "elsewhere"))
    }

    @Test func aPinAdmitsOnlyItsOwnMachineAndHostname() {
        let pin = FleetHostTable.Pin(machineID: a, hostname: "fleet-a")
        #expect(pin.admits(machineID: a, hostname: "fleet-a"))
        #expect(!pin.admits(machineID: b, hostname: "fleet-a"))
        #expect(!pin.admits(machineID: a, hostname: "fleet-b"))
        #expect(!pin.admits(machineID: nil, hostname: "fleet-a"))
    }
}
