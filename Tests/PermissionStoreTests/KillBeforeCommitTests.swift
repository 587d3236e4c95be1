import GRDB
import RelaunchContract
import Synchronization
import Testing
@testable import PermissionStore

@Suite("PermissionService: a kill asked for before the commit")
struct KillBeforeCommitTests {
    let app = ServiceHarness.app
    let unit = ServiceHarness.unit

    /// What the store and the reads looked like when the kill was asked for.
    struct AtAsk: Sendable, Equatable {
        var stored: PermissionState
        var readsWait: Bool
    }

    /// What was seen at each ask, and whether the app's reads waited at each reading of the running instance.
    final class Seen: Sendable {
        let list = Mutex<[AtAsk]>([])
        let readsWaitAtRead = Mutex<[Bool]>([])
        var all: [AtAsk] { list.withLock { $0 } }
        var atRead: [Bool] { readsWaitAtRead.withLock { $0 } }
    }

    /// A harness whose fake systemd asks for kills ahead of the commit (unless `asksEarly` is false),
    /// noting what was seen then and at each reading of the running instance.
    static func harness(seen: Seen = Seen(), asksEarly: Bool = true) throws -> ServiceHarness {
        let service = Mutex<PermissionService?>(nil)
        let app = ServiceHarness.app
        let units = FakeUnitController(active: [ServiceHarness.unit], asksEarly: asksEarly) { _ in
            guard let service = service.withLock({ $0 }) else { return }
            seen.list.withLock {
                $0.append(
                    AtAsk(
                        stored: Self.committedCamera(service.database),
                        readsWait: service.changesInFlight.isChanging(app)))
            }
        } onRead: { _ in
            guard let service = service.withLock({ $0 }) else { return }
            seen.readsWaitAtRead.withLock { $0.append(service.changesInFlight.isChanging(app)) }
        }
        let harness = try ServiceHarness(units: units)
        service.withLock { $0 = harness.service }
        return harness
    }

    /// checkin-demo's camera as the file holds it (not the memory reads are answered from).
    static func committedCamera(_ database: PermissionDatabase) -> PermissionState {
        let raw = try? database.queue.read { db in
            try String.fetchOne(
                db, sql: "SELECT state FROM permission_state WHERE app = ? AND permission = 'camera'",
                arguments: [ServiceHarness.app])
        }
        return raw.flatMap { PermissionState(rawValue: $0) } ?? .notDetermined
    }

    /// Sets checkin-demo's `permission`, stored as `old` first, to `new` through a harness that asks ahead.
    func change(
        _ permission: Permission, from old: PermissionState, to new: PermissionState
    ) async throws -> (ServiceHarness, Seen, PermissionOutcome) {
        let seen = Seen()
        let harness = try Self.harness(seen: seen)
        try harness.preset(permission, old)
        let outcome = await harness.handle(.set(app: app, permission: permission.rawValue, state: new.rawValue))
        #expect(outcome.reply == .success(.done))
        return (harness, seen, outcome)
    }

    @Test("the kill is asked for before the change is committed, with the app's reads waiting until it is")
    func askedBeforeCommit() async throws {
        let (harness, seen, outcome) = try await change(.camera, from: .allowed, to: .denied)
        #expect(harness.units.asked == [unit])
        #expect(seen.all == [AtAsk(stored: .allowed, readsWait: true)])
        // Then committed, the reads no longer wait, and the kill is recorded once, for the instance asked.
        #expect(Self.committedCamera(harness.database) == .denied)
        #expect(!harness.service.changesInFlight.isChanging(app))
        #expect(harness.units.killedInstances == [FakeUnitController.invocationID(1)])
        #expect(outcome.kills.count == 1)
        #expect(harness.database.lastKill(app: app) == outcome.kills.first)
        #expect(try harness.database.pendingKills().isEmpty)
    }

    @Test("the kill recorded is the one asked for: KILLED_USEC is when it was asked, after CHANGED_USEC")
    func recordedAsAsked() async throws {
        let harness = try Self.harness()
        let outcome = await harness.handle(.set(app: app, permission: "camera", state: "allowed"))
        let kill = try #require(outcome.kills.first)
        let changedAt = try #require(outcome.logs.first { $0.fields["CHANGED_USEC"] != nil }?.fields["CHANGED_USEC"])
        #expect(kill.at > UInt64(changedAt)!)
        #expect(kill.old == .notDetermined && kill.new == .allowed)
    }

    @Test("without a kill to ask ahead, the app's reads still wait from the reading of the running instance to the commit")
    func readsWaitWithoutAnAsk() async throws {
        let seen = Seen()
        let harness = try Self.harness(seen: seen, asksEarly: false)
        let outcome = await harness.handle(.set(app: app, permission: "camera", state: "allowed"))
        #expect(outcome.reply == .success(.done) && outcome.kills.count == 1)
        #expect(harness.units.asked.isEmpty && seen.all.isEmpty)
        #expect(seen.atRead == [true])
        #expect(!harness.service.changesInFlight.isChanging(app))
    }

    @Test("a change that does not kill asks for nothing and never reads the running instance, where the reads start waiting")
    func noKillNoAsk() async throws {
        let (harness, seen, outcome) = try await change(.location, from: .denied, to: .allowed)
        #expect(harness.units.asked.isEmpty && outcome.kills.isEmpty)
        #expect(seen.all.isEmpty)
        // The reads wait only from the reading of the running instance on (``change``), and it is never read.
        #expect(seen.atRead.isEmpty && !harness.service.changesInFlight.isChanging(app))
    }

    @Test("a commit that fails after the kill was asked: the reply says so, reads and LastKill are as before")
    func commitFailsAfterAsk() async throws {
        let harness = try Self.harness()
        try harness.preset(.camera, .allowed)
        try await harness.database.queue.write { db in try db.execute(sql: "DROP TABLE permission_history") }
        let outcome = await harness.handle(.set(app: app, permission: "camera", state: "denied"))
        let error = try #require(outcome.error)
        #expect(error.message.contains("killed already and comes back with its permissions as they were"))
        #expect(harness.units.asked == [unit])
        #expect(harness.database.get(app: app, permission: .camera) == .allowed)
        #expect(harness.database.lastKill(app: app) == nil)
        #expect(!harness.service.changesInFlight.isChanging(app))
        #expect(outcome.effects.isEmpty)
    }
}

@Suite("ChangesInFlight: reads that wait for a change being committed")
struct ChangesInFlightTests {
    @Test("a read waits until every change of its app in flight ended; other apps' reads never wait")
    func readsWaitForTheirApp() async {
        let changes = ChangesInFlight()
        changes.begin("a")
        changes.begin("a")
        #expect(changes.isChanging("a") && !changes.isChanging("b"))
        await changes.settled("b")  // returns at once
        let answered = Mutex(false)
        let reader = Task {
            await changes.settled("a")
            answered.withLock { $0 = true }
        }
        var yields = 0
        while changes.waitingReads("a") == 0 && yields < 100_000 {
            await Task.yield()
            yields += 1
        }
        #expect(changes.waitingReads("a") == 1)
        changes.end("a")
        #expect(changes.isChanging("a"))
        // One change is still in flight: the reader still waits.
        #expect(changes.waitingReads("a") == 1 && answered.withLock { $0 } == false)
        changes.end("a")
        await reader.value
        #expect(answered.withLock { $0 })
        #expect(!changes.isChanging("a"))
        changes.end("a")  // an end with nothing in flight changes nothing
        #expect(!changes.isChanging("a"))
    }
}
