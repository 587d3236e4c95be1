import Dispatch
import PermissionDaemon
import PermissionStore
import RelaunchContract
import Synchronization
import Testing

@Suite("The writer: one write at a time, in order, each answered, awaited at shutdown")
struct WriterTests {
    @Test("Jobs run one at a time in the order they were submitted")
    func jobsRunInOrder() async {
        let writer = Writer()
        let log = Mutex<[Int]>([])
        let running = Mutex((now: 0, most: 0))
        for index in 0..<50 {
            writer.submit {
                running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                for _ in 0..<5 { await Task.yield() }
                log.withLock { $0.append(index) }
                running.withLock { $0.now -= 1 }
            }
        }
        writer.finish()
        await writer.drain()
        #expect(log.withLock { $0 } == Array(0..<50))
        #expect(running.withLock { $0.most } == 1, "jobs overlapped")
        #expect(writer.submit {} == false, "a finished writer took a job")
    }

    @Test("Writes run on the writer's own thread, also after they awaited, never on the task pool")
    func jobsRunOnTheWriterThread() async {
        let writer = Writer()
        let onWriterThread = Mutex<[Bool]>([])
        for _ in 0..<3 {
            writer.submit {
                onWriterThread.withLock { $0.append(WriterThread.shared.isCurrent) }
                await Task.yield()
                try? await Task.sleep(for: .milliseconds(1))
                onWriterThread.withLock { $0.append(WriterThread.shared.isCurrent) }
            }
        }
        writer.finish()
        await writer.drain()
        #expect(onWriterThread.withLock { $0 } == Array(repeating: true, count: 6))
        #expect(await Task.detached { WriterThread.shared.isCurrent }.value == false, "a pool task ran on the writer thread")
    }

    @Test("The writer's thread runs what it is given, and says so within a bound when it does not")
    func threadServes() {
        // Waited for on this thread, not the task pool: with the writer's thread serving nothing,
        // the other writer tests hold the pool, and a pool-based timer would never fire.
        let ran = DispatchSemaphore(value: 0)
        let onWriterThread = Mutex(false)
        Task(executorPreference: WriterThread.shared) {
            onWriterThread.withLock { $0 = WriterThread.shared.isCurrent }
            ran.signal()
        }
        #expect(ran.wait(timeout: .now() + 20) == .success, "no job ran on the writer's thread within 20 s")
        #expect(onWriterThread.withLock { $0 })
    }

    @Test("Racing Sets are each applied once, one at a time, and each answered")
    func racingSetsAreEachAnswered() async throws {
        let count = 24
        let harness = try DaemonHarness(apps: count)
        for index in 0..<count { try harness.preset(index, .camera, .allowed) }
        let answers = Answers()
        try await harness.work.run {
            await withDiscardingTaskGroup { group in
                for index in 0..<count {
                    group.addTask { harness.set(index, .camera, .denied, answers: answers) }
                }
            }
            try await answers.wait(for: count)
        }
        #expect(answers.all.count == count)
        #expect(answers.all.allSatisfy { if case .success(.done) = $0 { true } else { false } }, "\(answers.all)")
        #expect(harness.units.killed.count == count, "each revocation kills its app once: \(harness.units.killed)")
        #expect(Set(harness.units.killed).count == count)
        #expect(harness.units.mostAtOnce == 1, "writes overlapped: \(harness.units.mostAtOnce) kills at once")
        for index in 0..<count {
            #expect(harness.database.get(app: DaemonHarness.app(index), permission: .camera) == .denied)
            #expect(harness.database.lastKill(app: DaemonHarness.app(index)) != nil)
        }
    }

    @Test("A write in flight at shutdown completes, answered and recorded, before run returns")
    func writeInFlightAtShutdownCompletes() async throws {
        let units = ScriptedUnits(gated: true)
        let harness = try DaemonHarness(units: units)
        try harness.preset(0, .camera, .allowed)
        let answers = Answers()
        try await harness.work.run {
            harness.set(0, .camera, .denied, answers: answers)
            try await withBound(.seconds(30), "the Set's kill to start") { await units.killStarted() }
            // Shutdown begins (serving returns, as at SIGTERM) while the write waits in its kill.
            units.openGate()
        }
        // Where the daemon closes the store: the write must be over by now.
        #expect(answers.all.count == 1, "the write in flight was not awaited: answers \(answers.all)")
        #expect(units.killed.count == 1)
        #expect(harness.database.lastKill(app: DaemonHarness.app(0)) != nil, "the kill was not recorded before run returned")
        #expect(try harness.database.pendingKills().isEmpty)
    }

    @Test("Calls taken after shutdown are refused, never lost")
    func callsAfterShutdownAreRefused() async throws {
        let harness = try DaemonHarness()
        try await harness.work.run {}
        let answers = Answers()
        harness.set(0, .camera, .denied, answers: answers)
        guard case .failure(let error) = try #require(answers.all.first) else {
            Issue.record("a Set after shutdown was accepted: \(answers.all)")
            return
        }
        #expect(error.message.contains("shutting down"))
        #expect(harness.database.get(app: DaemonHarness.app(0), permission: .camera) != .denied)
    }
}

@Suite("Reads of an app whose change commits after its kill was asked for")
struct ReadsDuringAskedKillTests {
    @Test("they wait until the change is committed, then answer it; other apps' reads are answered meanwhile")
    func readsWaitForTheCommit() async throws {
        let harness = try DaemonHarness(apps: 2)
        try harness.preset(0, .camera, .allowed)
        let changing = DaemonHarness.app(0)
        let answers = Answers()
        let other = Answers()
        try await harness.work.run {
            harness.service.changesInFlight.begin(changing)
            harness.work.read(
                .get(app: changing, permission: "camera"), interactive: false,
                identify: { Caller(uid: 0, busName: ":1.7") }, reply: { answers.add($0) })
            harness.work.read(
                .get(app: DaemonHarness.app(1), permission: "camera"), interactive: false,
                identify: { Caller(uid: 0, busName: ":1.7") }, reply: { other.add($0) })
            try await other.wait(for: 1)
            // Until the read waits or (wrongly) is answered; bounded, each turn lets the call task run.
            var turns = 0
            while harness.service.changesInFlight.waitingReads(changing) == 0 && answers.all.isEmpty && turns < 1_000_000 {
                await Task.yield()
                turns += 1
            }
            #expect(answers.all.isEmpty, "a read was answered while its app's change was in flight")
            #expect(harness.service.changesInFlight.waitingReads(changing) == 1)
            // The change commits, as the writer does between asking for the kill and ending the change.
            try harness.preset(0, .camera, .denied)
            harness.service.changesInFlight.end(changing)
            try await answers.wait(for: 1)
        }
        #expect(answers.all.count == 1)
        if case .success(.state(let state)) = answers.all.first { #expect(state == .denied) } else {
            Issue.record("the waiting read got \(answers.all)")
        }
    }
}
