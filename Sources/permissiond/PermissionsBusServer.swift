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
/// Reads (Get, List, ListApps, LastKill) are answered on the bus thread at once, from the store's
/// memory. Writes (Set, Reset) are answered later: polkit is asked off the bus thread, then the
/// ``Writer`` runs them one at a time (commit, kill, record), sends the reply, and hands the
/// journal entries and `Changed` signals to ``EffectPerformer``. The bus thread pings systemd's
/// watchdog while it serves and no write has been stuck for ``stuckWriteLimit``.
struct PermissionsBusServer: Service {
    /// The transport-free service.
    let service: PermissionService
    /// systemd's notify socket (READY=1, WATCHDOG=1).
    let notifier: ServiceNotifier
    /// The journal.
    let logger: Logger
    /// `RELAUNCH_TEST_HOOKS=1`: TestHook is served.
    let testHooks: TestHooks?

    /// A write running longer than this stops the watchdog pings.
    static let stuckWriteLimit: Duration = .seconds(8)
    /// The members whose caller must be known (writes, hooks).
    static let membersNeedingCaller: Set<String> = ["Set", "Reset", "TestHook"]
    /// Where callers' uids are looked up (`GetConnectionUnixUser`), off the bus thread.
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
        let link = link
        let callers = CallerUIDs()
        try await cancelWhenGracefulShutdown {
            try await serving.run { connection, first in
                effects.use(connection)
                callers.forgetAll()
                let uids: @Sendable (String?) -> UInt32 = { callers.uid(of: $0, over: link) }
                let read: BusDeferringMethodHandler = { (call, _) throws(BusError) -> BusReply? in
                    try Self.read(call, service: service)
                }
                let write: BusDeferringMethodHandler = { (call, pending) throws(BusError) -> BusReply? in
                    try Self.write(call, pending, service: service, writer: writer, effects: effects, uids: uids)
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

    /// Answers a read (Get, List, ListApps, LastKill) on the bus thread, at once, from memory.
    static func read(_ call: BusMethodCall, service: PermissionService) throws(BusError) -> BusReply? {
        switch service.read(try PermissionRequest(call)) {
        case .success(let reply): return reply.busReply
        case .failure(let error): throw error.busError
        }
    }

    /// Takes a write (Set, Reset): asks polkit off the bus thread, then the writer commits, kills
    /// and answers; the journal entries and signals follow.
    static func write(
        _ call: BusMethodCall, _ pending: BusPendingReply, service: PermissionService, writer: Writer,
        effects: EffectPerformer, uids: @escaping @Sendable (String?) -> UInt32
    ) throws(BusError) -> BusReply? {
        let request = try PermissionRequest(call)
        Task {
            let caller = Caller(
                uid: uids(call.sender), busName: call.sender,
                interactive: call.allowsInteractiveAuthorization)
            do throws(PermissionServiceError) {
                try await service.authorize(request, caller: caller)
            } catch {
                pending.send(.failure(error.busError))
                return
            }
            await writer.run {
                let outcome = await service.perform(request, caller: caller)
                pending.send(outcome.reply.map(\.busReply).mapError(\.busError))
                effects.submit(outcome.effects)
            }
        }
        return nil
    }
}

/// Callers' uids by unique bus name, asked of the bus (`GetConnectionUnixUser`) off the bus thread
/// and remembered: a unique name is never given to another connection while the bus runs, so a
/// client that sets many times is looked up once. Forgotten after a reconnect (a new bus may hand
/// out the same names again) and when it grows past ``capacity``.
final class CallerUIDs: Sendable {
    private let known = Mutex<[String: UInt32]>([:])
    static let capacity = 1024

    /// The uid of `sender`, or `UInt32.max` (nobody) when the bus cannot tell.
    func uid(of sender: String?, over link: BusLink) -> UInt32 {
        guard let sender else { return UInt32.max }
        if let uid = known.withLock({ $0[sender] }) { return uid }
        do throws(BusError) {
            let reply = try link.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetConnectionUnixUser", arguments: [.string(sender)], timeout: .seconds(5))
            let uid = try reply.uint32(at: 0)
            known.withLock { known in
                if known.count >= Self.capacity { known.removeAll(keepingCapacity: true) }
                known[sender] = uid
            }
            return uid
        } catch {
            return UInt32.max
        }
    }

    /// Forgets every name (the bus connection was made anew).
    func forgetAll() { known.withLock { $0.removeAll() } }
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
