import Foundation
import GRDB
import RelaunchContract
import RelaunchTestSupport
import Testing
@testable import PermissionStore

@Suite("PermissionDatabase")
struct PermissionDatabaseTests {
    let directory: TemporaryDirectory
    let app = "checkin-demo"

    init() throws { directory = try TemporaryDirectory(prefix: "permissionstore-tests") }

    @Test("a permission never set is not-determined, and so is every permission in list")
    func defaults() throws {
        let database = try directory.openDatabase()
        #expect(database.get(app: app, permission: .camera) == .notDetermined)
        let all = database.list(app: "never-seen")
        #expect(all.count == Permission.allCases.count)
        #expect(all.values.allSatisfy { $0 == .notDetermined })
        #expect(try database.apps().isEmpty)
        #expect(database.lastKill(app: app) == nil)
    }

    @Test("set returns the old state and whether it changed; the same state stores nothing")
    func setReturnsOld() throws {
        let database = try directory.openDatabase()
        let first = try database.set(app: app, permission: .camera, to: .denied, callerUID: 0, at: 10)
        #expect(first.old == .notDetermined && first.new == .denied && first.changed && first.historyID != nil)
        let again = try database.set(app: app, permission: .camera, to: .denied, callerUID: 0, at: 20)
        #expect(again.old == .denied && !again.changed && again.historyID == nil)
        let unset = try database.set(app: "other", permission: .photos, to: .notDetermined, callerUID: 0, at: 30)
        #expect(!unset.changed)
        #expect(try database.history(app: app).count == 1)
        #expect(try database.apps() == [app])
        #expect(database.list(app: app)[.camera] == .denied)
    }

    @Test("a committed set survives closing and reopening the file")
    func durableAcrossReopen() throws {
        do {
            let database = try directory.openDatabase()
            try database.set(app: app, permission: .microphone, to: .allowed, callerUID: 0, at: 1)
            try database.close()
        }
        let reopened = try directory.openDatabase()
        #expect(reopened.get(app: app, permission: .microphone) == .allowed)
        #expect(try reopened.history(app: app).map(\.new) == [.allowed])
    }

    @Test("an acknowledged set is visible to a second connection opened while the first stays open")
    func acknowledgedSetVisibleWithoutClose() throws {
        let database = try directory.openDatabase()
        try database.set(app: app, permission: .camera, to: .allowed, callerUID: 0, at: 1)
        // As after a SIGKILL: the writer never closed, a new process opens the file.
        let other = try directory.openDatabase()
        #expect(other.get(app: app, permission: .camera) == .allowed)
        withExtendedLifetime(database) {}
    }

    @Test("an uncommitted transaction is invisible, and gone once rolled back")
    func uncommittedIsInvisible() throws {
        let database = try directory.openDatabase()
        let raw = try DatabaseQueue(path: directory.path("permissions.db"))
        try raw.writeWithoutTransaction { db in
            try db.beginTransaction()
            try db.execute(
                sql: "INSERT INTO permission_state VALUES ('checkin-demo', 'camera', 'allowed', 1, 0)")
            let meanwhile = try directory.openDatabase()
            #expect(meanwhile.get(app: app, permission: .camera) == .notDetermined)
            try db.rollback()
        }
        #expect(database.get(app: app, permission: .camera) == .notDetermined)
        #expect(try directory.openDatabase().get(app: app, permission: .camera) == .notDetermined)
    }

    @Test("the file is in WAL mode with synchronous = FULL")
    func durabilityPragmas() throws {
        let database = try directory.openDatabase()
        let (journal, readerSync) = try database.queue.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        let writerSync = try database.queue.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(journal == "wal")
        #expect(readerSync == 2 && writerSync == 2, "2 is FULL")
    }

    @Test("history lists changes oldest first, with caller, time and kill, and honours limit")
    func historyOrdering() throws {
        let database = try directory.openDatabase()
        try database.set(app: app, permission: .camera, to: .denied, callerUID: 0, at: 300)
        try database.set(app: app, permission: .camera, to: .allowed, callerUID: 1000, at: 200)
        try database.set(app: app, permission: .location, to: .allowed, callerUID: 0, at: 100)
        try database.set(app: "other", permission: .camera, to: .allowed, callerUID: 0, at: 400)
        let history = try database.history(app: app)
        #expect(history.map(\.permission) == [.camera, .camera, .location])
        #expect(history.map(\.old) == [.notDetermined, .denied, .notDetermined])
        #expect(history.map(\.new) == [.denied, .allowed, .allowed])
        #expect(history.map(\.at) == [300, 200, 100], "ordered by insertion, not by clock")
        #expect(history.map(\.callerUID) == [0, 1000, 0])
        #expect(history.allSatisfy { !$0.killed && $0.invocationID == nil && $0.app == app })
        #expect(try database.history(app: app, limit: 2).map(\.at) == [200, 100])
        #expect(try database.apps() == [app, "other"])
    }

    @Test("reset puts one or every permission back to not-determined and records each change")
    func reset() throws {
        let database = try directory.openDatabase()
        try database.set(app: app, permission: .camera, to: .allowed, callerUID: 0, at: 1)
        try database.set(app: app, permission: .photos, to: .denied, callerUID: 0, at: 2)
        try database.set(app: app, permission: .location, to: .allowed, callerUID: 0, at: 3)

        let one = try database.reset(app: app, permission: .photos, callerUID: 0, at: 4)
        #expect(one.map(\.permission) == [.photos] && one[0].old == .denied)
        #expect(try database.reset(app: app, permission: .photos, callerUID: 0, at: 5).isEmpty)

        let all = try database.reset(app: app, permission: nil, callerUID: 7, at: 6)
        #expect(all.map(\.permission) == [.camera, .location])
        #expect(all.allSatisfy { $0.new == .notDetermined && $0.callerUID == 7 && $0.historyID != nil })
        #expect(database.list(app: app).values.allSatisfy { $0 == .notDetermined })
        let history = try database.history(app: app)
        #expect(history.count == 6)
        #expect(history.suffix(3).map(\.new) == [.notDetermined, .notDetermined, .notDetermined])
        #expect(try database.apps() == [app], "an app whose permissions were reset is still known")
    }

    @Test("recordKill answers lastKill and marks the history rows that caused it")
    func lastKill() throws {
        let database = try directory.openDatabase()
        let change = try database.set(app: app, permission: .camera, to: .allowed, callerUID: 0, at: 10)
        let first = KillRecord(
            app: app, unit: "checkin-demo.service", permission: .camera, old: .notDetermined, new: .allowed,
            invocationID: "0123456789abcdef0123456789abcdef", at: 11)
        try database.recordKill(first, causedBy: [change.historyID!])
        let second = KillRecord(
            app: app, unit: "checkin-demo.service", permission: .photos, old: .allowed, new: .denied,
            invocationID: "fedcba9876543210fedcba9876543210", at: 20)
        try database.recordKill(second)

        #expect(database.lastKill(app: app) == second)
        #expect(database.lastKill(app: "other") == nil)
        let entry = try #require(try database.history(app: app).first)
        #expect(entry.killed && entry.invocationID == first.invocationID)
        try database.close()
        #expect(try directory.openDatabase().lastKill(app: app) == second)
    }

    @Test("a kill in flight is the last kill until it is taken back; taking it back leaves a newer one")
    func killInFlight() throws {
        let database = try directory.openDatabase()
        let done = KillRecord(
            app: app, unit: "checkin-demo.service", permission: .camera, old: .notDetermined, new: .allowed,
            invocationID: "0123456789abcdef0123456789abcdef", at: 11)
        try database.recordKill(done)
        let flying = KillRecord(
            app: app, unit: "checkin-demo.service", permission: .camera, old: .allowed, new: .denied,
            invocationID: "0123456789abcdef0123456789abcdef", at: 20)
        #expect(database.announce(inFlight: flying) == done)
        #expect(database.lastKill(app: app) == flying, "answered while it is carried out")
        database.withdraw(inFlight: flying, restoring: done)
        #expect(database.lastKill(app: app) == done, "it did not happen")
        let newer = KillRecord(
            app: app, unit: "checkin-demo.service", permission: .photos, old: .allowed, new: .denied,
            invocationID: "fedcba9876543210fedcba9876543210", at: 30)
        _ = database.announce(inFlight: flying)
        try database.recordKill(newer)
        database.withdraw(inFlight: flying, restoring: done)
        #expect(database.lastKill(app: app) == newer, "a newer kill stays")
        try database.close()
        #expect(try directory.openDatabase().lastKill(app: app) == newer, "nothing in flight is stored")
    }

    @Test("a file that is not a database gives a typed error naming the path")
    func corruptFile() throws {
        let path = try directory.write(String(repeating: "this is not sqlite\n", count: 400), to: "garbage.db")
        let error = try #require(throws: PermissionDatabaseError.self) { try PermissionDatabase(path: path) }
        #expect(error.code == .corrupt)
        #expect(error.path == path)
        #expect(error.description.contains(path))
        #expect(error.description.contains("move it aside"))
    }

    @Test("a directory that does not exist gives cannotOpen naming the path")
    func missingDirectory() throws {
        let path = directory.path("no/such/dir/permissions.db")
        let error = try #require(throws: PermissionDatabaseError.self) { try PermissionDatabase(path: path) }
        #expect(error.code == .cannotOpen)
        #expect(error.description.contains(path))
    }

    @Test("a schema that cannot be brought up to date gives migrationFailed naming the path")
    func migrationFails() throws {
        let path = directory.path("foreign.db")
        // A database some other program made, with a table of the name the first migration creates.
        let foreign = try DatabaseQueue(path: path)
        try foreign.write { db in try db.execute(sql: "CREATE TABLE permission_state (something TEXT)") }
        try foreign.close()
        let error = try #require(throws: PermissionDatabaseError.self) { try PermissionDatabase(path: path) }
        #expect(error.code == .migrationFailed)
        #expect(error.description.contains(path) && error.description.contains("cannot update the schema"))
    }

    @Test("a write that fails names what it was doing, a Set or a Reset, and stores nothing of it")
    func failedWriteNamesOperation() throws {
        let database = try directory.openDatabase()
        _ = try database.set(app: app, permission: .camera, to: .allowed, callerUID: 0, at: 1)
        try database.close()
        // From now on every history row is refused, as a full disk would refuse it.
        let raw = try DatabaseQueue(path: directory.path("permissions.db"))
        try raw.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON permission_history BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
        try raw.close()
        let reopened = try directory.openDatabase()
        let set = try #require(throws: PermissionDatabaseError.self) {
            _ = try reopened.set(app: app, permission: .photos, to: .allowed, callerUID: 0, at: 2)
        }
        #expect(set.code == .operationFailed && set.operation == "set photos for \(app) to allowed")
        let reset = try #require(throws: PermissionDatabaseError.self) {
            try reopened.reset(app: app, permission: nil, callerUID: 0, at: 3)
        }
        #expect(reset.code == .operationFailed && reset.operation == "reset \(app)")
        #expect(reopened.get(app: app, permission: .camera) == .allowed, "the failed Reset left camera as it was")
        #expect(reopened.get(app: app, permission: .photos) == .notDetermined, "the failed Set stored nothing")
    }

    @Test("the pending kill a commit returns is the one stored, not yet announced")
    func commitReturnsStoredPendingKill() throws {
        let database = try directory.openDatabase()
        let committed = try database.commit(
            app: app, states: [(.camera, .denied), (.photos, .denied)], callerUID: 0, at: 7,
            owing: KillOwed(unit: "app.service", invocationID: "0123") { _ in true })
        let pending = try #require(committed.pending)
        #expect(pending.announced == false && pending.attempts == 0)
        #expect(try database.pendingKills() == [pending])
    }
}
