package import PermissionStore

/// Carries out the kills still owed (the outbox): at start, after a reconnect, and every
/// ``defaultRetryInterval`` while some remain, each try a job of the ``Writer`` so it never interleaves
/// with a Set. A kill is sent again only while the store still has it pending, so a kill that
/// went through is never sent twice; one that failed stays pending and is tried again.
package final class Outbox: Sendable {
    let service: PermissionService
    let writer: Writer
    let effects: EffectPerformer
    /// The waits before the next tries (the newest one counts: tries asked for meanwhile are one).
    private let tries: AsyncStream<Duration>
    private let triesInput: AsyncStream<Duration>.Continuation
    /// Finished by ``finish()``: stops a wait for the next try.
    private let stop: AsyncStream<Never>
    private let stopInput: AsyncStream<Never>.Continuation

    /// How long to wait before trying the remaining kills again, unless told otherwise.
    package static let defaultRetryInterval: Duration = .seconds(1)
    /// How long this outbox waits before trying the remaining kills again.
    let retryInterval: Duration
    /// Waits out a delay before a try; throws when the wait was cancelled (``finish()``).
    let sleep: @Sendable (Duration) async throws -> Void

    package init(
        service: PermissionService, writer: Writer, effects: EffectPerformer, retryInterval: Duration = Outbox.defaultRetryInterval,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.retryInterval = retryInterval
        self.sleep = sleep
        self.service = service
        self.writer = writer
        self.effects = effects
        (tries, triesInput) = AsyncStream.makeStream(of: Duration.self, bufferingPolicy: .bufferingNewest(1))
        (stop, stopInput) = AsyncStream.makeStream(of: Never.self)
    }

    /// Tries every pending kill after `delay` (at once by default).
    package func redeliver(after delay: Duration = .zero) {
        triesInput.yield(delay)
    }

    /// Stops trying: ``run()`` returns without waiting for a pending retry's delay. A try already
    /// handed to the writer still runs there.
    package func finish() {
        triesInput.finish()
        stopInput.finish()
    }

    /// Hands each try to the writer until ``finish()``.
    package func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await delay in self.tries {
                    if delay > .zero {
                        do { try await self.sleep(delay) } catch { return }  // finished meanwhile
                    }
                    self.writer.submit { await self.tryOnce() }
                }
            }
            for await _ in stop {}
            group.cancelAll()
        }
    }

    /// One try of every pending kill (run it on the writer); schedules the next while some remain.
    package func tryOnce() async {
        let (effects, remaining) = await service.redeliverPendingKills()
        self.effects.submit(effects)
        if remaining > 0 { redeliver(after: retryInterval) }
    }
}
