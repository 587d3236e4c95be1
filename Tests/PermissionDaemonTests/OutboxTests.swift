import PermissionDaemon
import PermissionStore
import RelaunchContract
import Synchronization
import Testing

@Suite("The outbox: a kill that failed is tried again, a kill that went through never twice")
struct OutboxTests {
    @Test("A kill that failed is retried until it goes through, then never sent again")
    func failedKillIsRetriedOnce() async throws {
        // The Set's own attempt and the outbox's first two tries fail; the third goes through.
        let units = ScriptedUnits(failKills: 3)
        let harness = try DaemonHarness(units: units)
        try harness.preset(0, .camera, .allowed)
        let answers = Answers()
        let writer = Writer()
        let waits = Mutex<[Duration]>([])
        let outbox = Outbox(
            service: harness.service, writer: writer, effects: harness.work.effects, retryInterval: .milliseconds(10),
            sleep: { delay in
                waits.withLock { $0.append(delay) }
                try await Task.sleep(for: delay)
            })
        await withDiscardingTaskGroup { group in
            group.addTask { await writer.drain() }
            group.addTask { await outbox.run() }
            writer.submit {
                let outcome = await harness.service.perform(
                    .set(app: DaemonHarness.app(0), permission: "camera", state: "denied"), caller: Caller(uid: 0))
                answers.add(outcome.reply)
            }
            try? await answers.wait(for: 1)
            outbox.redeliver()
            try? await withBound(.seconds(30), "the outbox to kill app-0 (attempts so far: \(units.attempts))") {
                await units.killedOne()
            }
            outbox.finish()
            writer.finish()
        }
        guard case .failure(let error) = try #require(answers.all.first) else {
            Issue.record("the Set's kill should have failed: \(answers.all)")
            return
        }
        #expect(error.message.contains("keeps trying"))
        #expect(units.killed.count == 1, "killed \(units.killed)")
        #expect(units.attempts == 4, "one Set attempt, two failed tries, one that went through")
        #expect(waits.withLock { $0 } == [.milliseconds(10), .milliseconds(10)], "each try after a failed one waits the retry interval; the first does not wait")
        #expect(try harness.database.pendingKills().isEmpty)

        // Tries after the kill went through send nothing.
        let attempts = units.attempts
        await outbox.tryOnce()
        await outbox.tryOnce()
        #expect(units.attempts == attempts, "the kill was sent again")
        #expect(units.killed.count == 1)
        #expect(harness.database.lastKill(app: DaemonHarness.app(0)) != nil)
    }

    @Test("A kill whose instance is gone is dropped, not retried")
    func goneInstanceIsDropped() async throws {
        let units = ScriptedUnits(failKills: 1)
        let harness = try DaemonHarness(units: units)
        try harness.preset(0, .camera, .allowed)
        _ = await harness.service.perform(
            .set(app: DaemonHarness.app(0), permission: "camera", state: "denied"), caller: Caller(uid: 0))
        #expect(try harness.database.pendingKills().count == 1)
        units.start(DaemonHarness.unit(0))  // systemd restarted the app meanwhile: a new instance
        await harness.work.outbox.tryOnce()
        #expect(units.killed.isEmpty, "a newer instance was killed for an older change")
        #expect(try harness.database.pendingKills().isEmpty)
    }
}
