import PermissionStore
import RelaunchContract
import RelaunchTestSupport
@testable import RelaunchctlJournal
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `relaunchctl journal` against permissiond's history: a real database, written by PermissionStore
/// (still open, as permissiond keeps it), read by the review's own SQLite reader.
@Suite("relaunchctl journal against permissiond's history")
struct HistoryCheckTests {
    @Test("a change of the history that no incident shows is named; the span, the app and an owed kill are kept to")
    func namesWhatTheJournalLacks() throws {
        let directory = try TemporaryDirectory(prefix: "relaunch-history")
        let folder = directory.path
        let path = folder + "/permissions.db"
        let database = try PermissionDatabase(path: path)
        try database.set(app: "checkin-demo", permission: .camera, to: .allowed, callerUID: 0, at: 1_000)
        try database.set(app: "checkin-demo", permission: .camera, to: .denied, callerUID: 0, at: 2_000)
        try database.set(app: "banca-demo", permission: .camera, to: .allowed, callerUID: 1000, at: 3_000)
        // A kill still owed: its entry is written once the kill is done, so it is not missing yet.
        try database.set(app: "banca-demo", permission: .camera, to: .denied, callerUID: 0, at: 4_000,
                         owing: KillOwed(unit: "banca-demo.service", invocationID: "0123", kills: { _ in true }))

        var check = HistoryCheck(place: .live, hosts: [], databasePath: path)
        check.note(.init(app: "checkin-demo", permission: "camera", old: "not-determined", new: "allowed", atUSec: 1_000),
                   machineID: "")
        // Another machine's incident of the same change does not stand in for this one's.
        check.note(.init(app: "checkin-demo", permission: "camera", old: "allowed", new: "denied", atUSec: 2_000),
                   machineID: "00000000000000000000000000000001")
        let missing = try #require(try check.missing(sinceUSec: nil, app: nil))
        #expect(missing.map(\.atUSec) == [2_000, 3_000])
        #expect(missing.map(\.callerUID) == [0, 1000])
        #expect(try check.missing(sinceUSec: 2_500, app: nil)?.map(\.app) == ["banca-demo"])
        #expect(try check.missing(sinceUSec: nil, app: "checkin-demo")?.map(\.new) == ["denied"])

        let lines = HistoryCheck.lines(missing)
        #expect(lines.first == "2 permission changes in permissiond's history are missing from the journal:")
        #expect(lines.count == 3 && lines[1].contains("checkin-demo camera allowed → denied (uid 0, history row 2)"))
        #expect(HistoryCheck.lines(Array(missing.prefix(1))).first
            == "1 permission change in permissiond's history is missing from the journal:")
        #expect(HistoryCheck.lines([]).isEmpty)
    }

    @Test("nothing to compare with: another place, hosts chosen, or a database this user cannot read")
    func saysNothingWithoutTheDatabase() throws {
        let directory = try TemporaryDirectory(prefix: "relaunch-history")
        let folder = directory.path
        let path = folder + "/permissions.db"
        _ = try PermissionDatabase(path: path)
        #expect(HistoryCheck(place: .live, hosts: [], databasePath: path).databasePath == path)
        #expect(HistoryCheck(place: .merge, hosts: [], databasePath: path).databasePath == path)
        #expect(HistoryCheck(place: .directory(folder), hosts: [], databasePath: path).databasePath == nil)
        #expect(HistoryCheck(place: .live, hosts: ["fleet-1"], databasePath: path).databasePath == nil)
        let absent = HistoryCheck(place: .live, hosts: [], databasePath: folder + "/none.db")
        #expect(absent.databasePath == nil)
        #expect(try absent.missing(sinceUSec: nil, app: nil) == nil)
    }
}
