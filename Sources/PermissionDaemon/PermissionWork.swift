package import PermissionStore
import RelaunchContract
import Synchronization

/// Everything permissiond does once the bus thread has handed a call over, without the bus: the
/// calls' own tasks (``CallTasks``), the one ``Writer``, the ``Outbox`` and the effects after a
/// reply (``EffectPerformer``), all started and awaited by ``run(serving:)``.
///
/// A write (Set, Reset) runs in two steps: its call task learns who the caller is and asks the
/// authorizer (concurrently with other calls: a polkit prompt holds up its own caller only), then
/// hands the change to the writer, which commits, kills, replies and submits the effects.
package final class PermissionWork: Sendable {
    /// A call's answer, sent when it is known.
    package typealias Reply = @Sendable (Result<PermissionReply, PermissionServiceError>) -> Void
    /// Who the caller is (``CallerDirectory``); throws when that could not be learned now.
    package typealias Identify = @Sendable () async throws(PermissionServiceError) -> Caller

    package let service: PermissionService
    package let writer = Writer()
    package let calls = CallTasks()
    package let effects: EffectPerformer
    package let outbox: Outbox
    /// Each app's one-time clock: at most one waiting expiry per app, whatever it reports (an app that
    /// reports `background` in a loop replaces its clock instead of piling up timers and writes).
    private let oneTimeClocks = Mutex<[String: Task<Void, Never>]>([:])

    /// Where a standby's report of itself is kept for the kills (nil: nowhere).
    package let standbys: StandbyRegistry?

    package init(service: PermissionService, effects: EffectPerformer, standbys: StandbyRegistry? = nil) {
        self.service = service
        self.effects = effects
        self.standbys = standbys
        outbox = Outbox(service: service, writer: writer, effects: effects)
    }

    /// Runs `serving` with the writer, the call tasks and the outbox running beside it, then shuts
    /// down in order once `serving` returns or throws: no new calls, the calls taken finish (their
    /// writes reach the writer), the outbox stops, the writer runs every write queued, and the
    /// effects of the last writes are performed. So when this returns no write is in flight, and
    /// the store may close.
    ///
    /// - Throws: what `serving` throws, once everything has shut down.
    package func run(serving: () async throws -> Void) async throws {
        async let writing: Void = writer.drain()
        async let calling: Void = calls.run()
        async let retrying: Void = outbox.run()
        let served: Result<Void, any Error>
        do {
            try await serving()
            served = .success(())
        } catch {
            served = .failure(error)
        }
        calls.finish()
        await calling
        outbox.finish()
        await retrying
        writer.finish()
        await writing
        await effects.drained()
        try served.get()
    }

    /// Takes a write: learns who `identify` says the caller is, asks the authorizer, then queues
    /// the change on the writer, which answers through `reply` and performs the effects.
    package func write(
        _ request: PermissionRequest, interactive: Bool, identify: @escaping Identify,
        reply: @escaping Reply, whenAnswered: @escaping @Sendable () -> Void = {}
    ) {
        take(request, interactive: interactive, identify: identify, reply: reply, whenAnswered: whenAnswered) { caller in
            let queued = self.writer.submit {
                defer { whenAnswered() }
                let outcome = await self.service.perform(request, caller: caller)
                reply(outcome.reply)
                self.effects.submit(outcome.effects)
            }
            guard queued else { return .failure(Self.shuttingDown) }
            return nil
        }
    }

    /// Takes a read that needs the caller looked up and, unless it is root or the app itself,
    /// polkit's word, or that waits for a change of its app in flight (``ChangesInFlight``); answers
    /// from memory once allowed and no such change is in flight.
    package func read(
        _ request: PermissionRequest, interactive: Bool, identify: @escaping Identify,
        reply: @escaping Reply, whenAnswered: @escaping @Sendable () -> Void = {}
    ) {
        take(request, interactive: interactive, identify: identify, reply: reply, whenAnswered: whenAnswered) { _ in
            if let app = request.app { await self.service.changesInFlight.settled(app) }
            return self.service.read(request)
        }
    }

    /// Takes an app's report of its lifecycle (the app itself, or root): answers at once, and when
    /// the app went to the background under a profile with one-time grants, queues their expiry on
    /// the writer once the delay has passed (a report in between makes it stale: nothing expires).
    package func lifecycle(
        _ request: PermissionRequest, interactive: Bool, identify: @escaping Identify,
        reply: @escaping Reply, whenAnswered: @escaping @Sendable () -> Void = {}
    ) {
        take(request, interactive: interactive, identify: identify, reply: reply, whenAnswered: whenAnswered) { caller in
            self.noteLifecycle(request, caller: caller)
        }
    }

    /// Answers a lifecycle report of `caller` (admitted already) and starts the one-time clock it may
    /// start. A standby's report (`Lifecycle(app, "standby")` from a process of the app's unit) is
    /// kept for the kills: from then on the app's kills go to it first. Root's names no process of
    /// the unit and is kept nowhere.
    package func noteLifecycle(_ request: PermissionRequest, caller: Caller?) -> Result<PermissionReply, PermissionServiceError> {
        let answer = service.read(request)
        guard case .success = answer, case .lifecycle(let app, let lifecycle) = request else { return answer }
        if lifecycle == AppState.Lifecycle.standbyReport, let unit = caller?.unit, let pid = caller?.pid {
            standbys?.register(unit: unit, pid: pid)
        }
        guard lifecycle == "background",
              let delay = service.oneTimeDelay(for: app), let period = service.lifecycles.backgroundPeriod(app)
        else { return answer }
        let clock = Task {
            guard (try? await Task.sleep(for: delay)) != nil else { return }  // replaced by a newer report
            _ = self.writer.submit {
                let outcome = await self.service.expireOneTimeGrants(app: app, period: period)
                self.effects.submit(outcome.effects)
            }
        }
        oneTimeClocks.withLock { clocks in
            clocks[app]?.cancel()
            clocks[app] = clock
        }
        return answer
    }

    /// The answer to a call taken after shutdown began.
    static let shuttingDown = PermissionServiceError.failed("permissiond is shutting down; nothing was changed: try again")

    /// Starts a call task that identifies and authorizes the caller, then runs `allowed`: its
    /// answer is sent, or nil when it answers later itself (and then calls `whenAnswered` itself).
    private func take(
        _ request: PermissionRequest, interactive: Bool, identify: @escaping Identify,
        reply: @escaping Reply, whenAnswered: @escaping @Sendable () -> Void,
        allowed: @escaping @Sendable (Caller) async -> Result<PermissionReply, PermissionServiceError>?
    ) {
        let taken = calls.start {
            let answer: Result<PermissionReply, PermissionServiceError>?
            do throws(PermissionServiceError) {
                var caller = try await identify()
                caller.interactive = interactive
                try await self.service.authorize(request.method, app: request.app, caller: caller)
                answer = await allowed(caller)
            } catch {
                answer = .failure(error)
            }
            if let answer {
                reply(answer)
                whenAnswered()
            }
        }
        if !taken {
            reply(.failure(Self.shuttingDown))
            whenAnswered()
        }
    }
}
