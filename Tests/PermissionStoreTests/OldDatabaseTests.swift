import Foundation
import GRDB
import RelaunchContract
import RelaunchTestSupport
import Testing
@testable import PermissionStore

/// A database written before the profiles (schema v2, 70d6c61) opens, migrates, answers exactly as
/// it did, and then takes the profiles' states.
@Suite("PermissionDatabase: a database of an earlier version")
struct OldDatabaseTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory(prefix: "permissionstore-tests")
        path = directory.path("permissions.db")
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/permissions-v2-70d6c61.sql")
        let dump = try String(contentsOf: fixture, encoding: .utf8)
        let old = try DatabaseQueue(path: path)
        try old.writeWithoutTransaction { db in try db.execute(sql: dump) }
        try old.close()
    }

    @Test("it opens and answers Get, List, history, LastKill and the outbox as before")
    func answersAsBefore() throws {
        let database = try PermissionDatabase(path: path)
        #expect(database.get(app: "checkin-demo", permission: .camera) == .allowed)
        #expect(database.get(app: "checkin-demo", permission: .location) == .allowed)
        #expect(database.get(app: "checkin-demo", permission: .photos) == .notDetermined)
        #expect(database.get(app: "banca-demo", permission: .camera) == .denied)
        let list = database.list(app: "checkin-demo")
        #expect(list[.camera] == .allowed && list[.location] == .allowed && list[.microphone] == .notDetermined)
        #expect(try database.apps() == ["banca-demo", "checkin-demo"])

        let history = try database.history(app: "checkin-demo")
        #expect(history.map(\.id) == [1, 2, 3, 4])
        #expect(history.map(\.new) == [.denied, .allowed, .allowed, .notDetermined])
        #expect(history.map(\.killed) == [true, true, false, false])
        #expect(history[1].invocationID == "1a2b3c4d5e6f708192a3b4c5d6e7f809" && history[1].callerUID == 1000)

        let kill = try #require(database.lastKill(app: "checkin-demo"))
        #expect(kill.old == .denied && kill.new == .allowed && kill.at == 2001 && kill.unit == "checkin-demo.service")
        let pending = try database.pendingKills()
        #expect(pending.map(\.app) == ["banca-demo"] && pending.first?.historyIDs == [6])
    }

    @Test("after the migration it stores the profiles' states; ids go on; it opens again")
    func takesNewStates() throws {
        do {
            let database = try PermissionDatabase(path: path)
            let change = try database.set(app: "checkin-demo", permission: .photos, to: .limited, callerUID: 0, at: 5000)
            #expect(change.old == .notDetermined && change.historyID == 7)
            try database.set(app: "checkin-demo", permission: .location, to: .whileUsingApproximate, callerUID: 0, at: 5001)
            try database.set(app: "checkin-demo", permission: .notifications, to: .provisional, callerUID: 0, at: 5002)
            try database.close()
        }
        let reopened = try PermissionDatabase(path: path)
        #expect(reopened.get(app: "checkin-demo", permission: .photos) == .limited)
        #expect(reopened.get(app: "checkin-demo", permission: .location) == .whileUsingApproximate)
        #expect(reopened.get(app: "checkin-demo", permission: .notifications) == .provisional)
        #expect(reopened.get(app: "checkin-demo", permission: .camera) == .allowed)
        #expect(try reopened.history(app: "checkin-demo").map(\.id) == [1, 2, 3, 4, 7, 8, 9])
    }

    @Test("the schema keeps checking states: a word no profile has is refused by SQLite")
    func stillChecked() throws {
        _ = try PermissionDatabase(path: path)
        let queue = try DatabaseQueue(path: path)
        #expect(throws: (any Error).self) {
            try queue.write { db in
                try db.execute(sql: "UPDATE permission_state SET state = 'sometimes' WHERE app = 'banca-demo'")
            }
        }
    }
}
