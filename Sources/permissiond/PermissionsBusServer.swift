import Logging
import PermissionStore
import RelaunchBus
import RelaunchContract
import ServiceLifecycle
import Synchronization
import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// Serves `org.relaunch.Permissions1` on the system bus until graceful shutdown, reconnecting when
/// the bus goes away.
///
/// Every call's caller is who the bus and systemd say it is (``CallerDirectory``): its uid from
/// the bus daemon, its unit from systemd. Reads (Get, List, LastKill) are private: root and the
/// app itself are answered on the bus thread at once, from the store's memory, once the caller is
/// known; anyone else waits for polkit (`org.relaunch.permissions.read`), off the bus thread.
/// ListApps is open. Writes (Set, Reset) are answered later: polkit is asked off the bus thread,
/// then the ``Writer`` runs them one at a time (commit, kill, record), sends the reply, and hands
/// the journal entries and `Changed` signals to ``EffectPerformer``. No caller may have more than
/// ``pendingPerCaller`` calls waiting at once. The bus thread pings systemd's watchdog while it
/// serves and no write has been running for longer than ``stuckWriteLimit``.
struct PermissionsBusServer: Service {
    /// The transport-free service.
    let service: PermissionService
    /// systemd's notify socket (READY=1, WATCHDOG=1).
    let notifier: ServiceNotifier
    /// The journal.
    let logger: Logger
    /// `RELAUNCH_TEST_HOOKS=1`: TestHook is served.
    let testHooks: TestHooks?

    /// The longest a legitimate write takes when systemd answers each call at its bound: the
    /// running-instance question, then every inline kill attempt (with its start-limit reset) and the
    /// waits between them, plus the store's commit. A write running longer than this is stuck, and
    /// the watchdog pings stop (so `WatchdogSec=` later systemd aborts and restarts the daemon).
    static let stuckWriteLimit: Duration = {
        let attempts = PermissionService.defaultInlineRetryDelays
        let calls = SystemdUnitController.callsPerRunningInstance + attempts.count * SystemdUnitController.callsPerKill
        return SystemdUnitController.callTimeout * calls + attempts.reduce(.zero, +) + .seconds(5)
    }()
    /// The most calls one caller (unique bus name) may have waiting for an answer at once.
    static let pendingPerCaller = 16
    /// Where callers' identities are looked up, and polkit and systemd are asked.
    let link: BusLink

    func run() async throws {
        let effects = EffectPerformer(logger: logger)
        let writer = Writer()
        let outbox = Outbox(service: service, writer: writer, effects: effects)
        var heartbeat: LoopHeartbeat?
        if let interval = try ServiceNotifier.recommendedWatchdogPingInterval() {
            let notifier = notifier
            let logger = logger
            heartbeat = LoopHeartbeat(interval: interval) {
                if let busy = writer.busyFor, busy > Self.stuckWriteLimit {
                    logger.error("a write has been running for \(busy); not pinging the watchdog")
                    return
                }
                _ = try? notifier.watchdog()
            }
        }
        let serving = BusServing(heartbeat: heartbeat, logger: logger)
        let service = service
        let logger = logger
        let testHooks = testHooks
        let notifier = notifier
        let callers = CallerDirectory(link: link)
        let pending = PendingCalls(limit: Self.pendingPerCaller)
        try await cancelWhenGracefulShutdown {
            try await serving.run { connection, first in
                effects.use(connection)
                callers.forgetAll()
                let read: BusDeferringMethodHandler = { (call, reply) throws(BusError) -> BusReply? in
                    try Self.read(call, reply, service: service, callers: callers, pending: pending)
                }
                let write: BusDeferringMethodHandler = { (call, reply) throws(BusError) -> BusReply? in
                    try Self.write(call, reply, service: service, writer: writer, effects: effects, callers: callers, pending: pending)
                }
                let object = try connection.export(
                    .permissions1, at: BusNames.Permissions.object, resolvingSenderUID: { $0 == "TestHook" },
                    handlers: [
                        "Get": read, "List": read, "ListApps": read, "LastKill": read, "Set": write, "Reset": write,
                        "TestHook": { (call, _) throws(BusError) -> BusReply? in
                            try TestHooks.serve(call, hooks: testHooks)
                            return .empty
                        },
                    ])
                do throws(BusError) {
                    try connection.requestName(BusNames.Permissions.service)
                } catch {
                    throw DaemonError(
                        "cannot own \(BusNames.Permissions.service) on the system bus: \(error); "
                            + "is another permissiond running (busctl status \(BusNames.Permissions.service))?")
                }
                if first {
                    let apps = service.configuration.apps.joined(separator: ", ")
                    logger.notice(
                        "serving \(BusNames.Permissions.service): kill policy \(service.configuration.killPolicy), apps \(apps), database \(service.database.path)")
                    _ = try? notifier.ready(status: "Serving \(BusNames.Permissions.service)")
                }
                outbox.redeliver()  // at start and after every reconnect
                return [object]
            }
        }
        await outbox.drained()
        await effects.drained()  // the journal entries and signals of the last calls
    }

    /// Answers a read (Get, List, ListApps, LastKill): at once, on the bus thread, from memory, when
    /// the caller is known and is root or the app itself (or the read is ListApps); otherwise once
    /// the caller is looked up and, if it is neither, polkit said yes.
    static func read(
        _ call: BusMethodCall, _ reply: BusPendingReply, service: PermissionService, callers: CallerDirectory,
        pending: PendingCalls
    ) throws(BusError) -> BusReply? {
        let request = try PermissionRequest(call)
        if let caller = callers.cached(call.sender), service.readsWithoutAsking(request, caller: caller) {
            return try answer(service.read(request))
        }
        if case .listApps = request { return try answer(service.read(request)) }
        let ticket = try pending.admit(call.sender)
        Task {
            defer { pending.release(ticket) }
            var caller = await callers.identity(of: call.sender)
            caller.interactive = call.allowsInteractiveAuthorization
            do throws(PermissionServiceError) {
                try await service.authorize(request, caller: caller)
            } catch {
                reply.send(.failure(error.busError))
                return
            }
            reply.send(service.read(request).map(\.busReply).mapError(\.busError))
        }
        return nil
    }

    private static func answer(_ result: Result<PermissionReply, PermissionServiceError>) throws(BusError) -> BusReply {
        switch result {
        case .success(let reply): return reply.busReply
        case .failure(let error): throw error.busError
        }
    }

    /// Takes a write (Set, Reset): asks polkit off the bus thread, then the writer commits, kills
    /// and answers; the journal entries and signals follow.
    static func write(
        _ call: BusMethodCall, _ reply: BusPendingReply, service: PermissionService, writer: Writer,
        effects: EffectPerformer, callers: CallerDirectory, pending: PendingCalls
    ) throws(BusError) -> BusReply? {
        let request = try PermissionRequest(call)
        let ticket = try pending.admit(call.sender)
        Task {
            defer { pending.release(ticket) }
            var identity = await callers.identity(of: call.sender)
            identity.interactive = call.allowsInteractiveAuthorization
            let caller = identity
            do throws(PermissionServiceError) {
                try await service.authorize(request, caller: caller)
            } catch {
                reply.send(.failure(error.busError))
                return
            }
            await writer.run {
                let outcome = await service.perform(request, caller: caller)
                reply.send(outcome.reply.map(\.busReply).mapError(\.busError))
                effects.submit(outcome.effects)
            }
        }
        return nil
    }
}

/// How many calls each caller has waiting for an answer (an authorization, the writer), so one
/// caller cannot pile up work: past ``limit`` its next call is refused at once with LimitsExceeded.
final class PendingCalls: Sendable {
    let limit: Int
    private let counts = Mutex<[String: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts one more call of `sender`, or throws LimitsExceeded when it has ``limit`` waiting.
    func admit(_ sender: String?) throws(BusError) -> String {
        let key = sender ?? ""
        let admitted = counts.withLock { counts in
            guard counts[key, default: 0] < limit else { return false }
            counts[key, default: 0] += 1
            return true
        }
        guard admitted else {
            throw BusError(
                name: BusError.limitsExceededName,
                message: "this connection already has \(limit) calls waiting for an answer; wait for them first")
        }
        return key
    }

    /// The call admitted for `key` was answered.
    func release(_ key: String) {
        counts.withLock { counts in
            let left = counts[key, default: 1] - 1
            counts[key] = left > 0 ? left : nil
        }
    }
}

/// Carries out the kills still owed (the outbox): at start, after a reconnect, and every second
/// while some remain, through the writer so they never interleave with a Set.
final class Outbox: Sendable {
    let service: PermissionService
    let writer: Writer
    let effects: EffectPerformer
    private let scheduled = Atomic<Bool>(false)
    private let running = Mutex<Task<Void, Never>?>(nil)

    /// How long to wait before trying the remaining kills again.
    static let retryInterval: Duration = .seconds(1)

    init(service: PermissionService, writer: Writer, effects: EffectPerformer) {
        self.service = service
        self.writer = writer
        self.effects = effects
    }

    /// Tries every pending kill now (unless a try is already on its way).
    func redeliver(after delay: Duration = .zero) {
        guard scheduled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        let task = Task {
            if delay > .zero { try? await Task.sleep(for: delay) }
            scheduled.store(false, ordering: .releasing)
            guard !Task.isCancelled else { return }
            let remaining = await writer.run {
                let (effects, remaining) = await service.redeliverPendingKills()
                self.effects.submit(effects)
                return remaining
            }
            if remaining > 0 && !Task.isCancelled { redeliver(after: Self.retryInterval) }
        }
        running.withLock { $0 = task }
    }

    /// Stops retrying and waits for a try in progress.
    func drained() async {
        let task = running.withLock { $0 }
        task?.cancel()
        await task?.value
    }
}

/// The sandbox's fault hooks (`RELAUNCH_TEST_HOOKS=1` only): `hang` blocks the bus thread for
/// good (the watchdog must fire); `die-before-kill` makes the next kill SIGKILL permissiond
/// itself after the change was committed and before the app is killed (the outbox must recover).
final class TestHooks: Sendable {
    let dieBeforeKill = Atomic<Bool>(false)
    static let names = ["hang", "die-before-kill"]

    static func serve(_ call: BusMethodCall, hooks: TestHooks?) throws(BusError) {
        guard call.senderUID == 0 else {
            throw .accessDenied("TestHook is for root only")
        }
        guard let hooks else {
            throw BusError(
                name: "org.freedesktop.DBus.Error.NotSupported",
                message: "test hooks are off; the unit must set RELAUNCH_TEST_HOOKS=1 (the sandbox's drop-in does)")
        }
        let name = try call.arguments.string(at: 0)
        switch name {
        case "hang":
            while true { pause() }
        case "die-before-kill":
            hooks.dieBeforeKill.store(true, ordering: .releasing)
        default:
            throw .invalidArgs("unknown test hook \(Echo.quoted(name)); accepted: \(names.joined(separator: ", "))")
        }
    }
}

/// A ``UnitController`` that obeys the `die-before-kill` hook, then defers to systemd.
struct HookedUnitController: UnitController {
    let units: any UnitController
    let hooks: TestHooks

    func runningInstance(of unit: String) async throws -> String? {
        try await units.runningInstance(of: unit)
    }

    func kill(unit: String, instance: String) async throws -> KillDelivery {
        if hooks.dieBeforeKill.exchange(false, ordering: .acquiringAndReleasing) {
            raise(SIGKILL)
        }
        return try await units.kill(unit: unit, instance: instance)
    }
}
