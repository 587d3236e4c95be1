package import Logging
package import PermissionStore
import RelaunchBus
import RelaunchContract
import ServiceLifecycle
import Synchronization
package import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// Serves `org.relaunch.Permissions1` on the system bus until graceful shutdown, reconnecting when
/// the bus goes away.
///
/// Every call's caller is who the bus and systemd say it is (``CallerDirectory``): its uid from
/// the bus daemon, its unit from systemd. Who may call each method is its row of the table
/// (``Permissions1Method/Access``), checked in one place (``PermissionService/verdict(_:app:caller:)``).
/// Reads (Get, List, LastKill) are private: root and the app itself are answered on the bus thread
/// at once, from the store's memory, once the caller is known (while a change of the app commits
/// after its kill was asked for, off the bus thread once it is committed); anyone else waits for
/// polkit (`org.relaunch.permissions.read`), off the bus thread.
/// ListApps is open. Writes (Set, Reset) are answered later: polkit is asked off the bus thread,
/// then the ``Writer`` runs them one at a time (commit, kill, record), sends the reply, and hands
/// the journal entries and `Changed` signals to ``EffectPerformer`` (``PermissionWork``). At
/// shutdown every call taken and every write queued finishes before ``run()`` returns. No caller may have more than
/// ``pendingPerCaller`` calls waiting at once. The bus thread pings systemd's watchdog while it
/// serves and no write has been running for longer than ``stuckWriteLimit``.
package struct PermissionsBusServer: Service {
    /// The transport-free service.
    let service: PermissionService
    /// systemd's notify socket (READY=1, WATCHDOG=1).
    let notifier: ServiceNotifier
    /// The journal.
    let logger: Logger
    /// `RELAUNCH_TEST_HOOKS=1`: TestHook is served.
    let testHooks: TestHooks?

    /// The longest a legitimate write takes when systemd answers each call at its bound: the
    /// running-instance question, then every inline kill attempt (with its start-limit reset and a
    /// standby's chance to kill first) and the waits between them, plus the store's commit. A write
    /// running longer than this is stuck, and the watchdog pings stop (so `WatchdogSec=` later
    /// systemd aborts and restarts the daemon).
    package static let stuckWriteLimit: Duration = {
        let attempts = PermissionService.defaultInlineRetryDelays
        let reads = SystemdUnitController.callsPerRunningInstance + attempts.count * SystemdUnitController.readsPerKill
        let authorized = attempts.count * SystemdUnitController.authorizedCallsPerKill
        return SystemdUnitController.callTimeout * reads + SystemdUnitController.authorizedCallTimeout * authorized
            + SystemdUnitController.standbyKillBound * attempts.count + attempts.reduce(.zero, +) + .seconds(5)
    }()
    /// Whether a call to `member` needs the caller's uid from the bus daemon before it is handled:
    /// the methods only root may call (TestHook, decided on the loop); the others ask the caller
    /// directory off the loop thread, and a round trip per read would only slow them.
    @Sendable package static func resolvesSenderUID(_ member: String) -> Bool {
        Permissions1Method(member: member)?.access == .root
    }

    /// Whether a write that has been running for `busy` is stuck (past ``stuckWriteLimit``).
    package static func isStuck(busyFor busy: Duration) -> Bool { busy > stuckWriteLimit }

    /// The most calls one caller (unique bus name) may have waiting for an answer at once.
    static let pendingPerCaller = 16
    /// Where callers' identities are looked up: a link that serves nothing else.
    let link: BusLink
    /// What follows a reply (journal entries, signals), and the standby's kill request.
    let effects: EffectPerformer
    /// Where standbys that report themselves are kept, for the kills.
    let standbys: StandbyRegistry?

    /// Forgets what was remembered of callers by their unique names elsewhere (polkit's refusals):
    /// run at every (re)connect, since a new bus daemon gives the same names to other connections.
    let forgetNames: @Sendable () -> Void

    package init(
        service: PermissionService, notifier: ServiceNotifier, logger: Logger, testHooks: TestHooks?, link: BusLink,
        effects: EffectPerformer? = nil, standbys: StandbyRegistry? = nil, forgetNames: @escaping @Sendable () -> Void = {}
    ) {
        self.forgetNames = forgetNames
        self.effects = effects ?? EffectPerformer(logger: logger)
        self.standbys = standbys
        self.service = service
        self.notifier = notifier
        self.logger = logger
        self.testHooks = testHooks
        self.link = link
    }

    package func run() async throws {
        let work = PermissionWork(service: service, effects: effects, standbys: standbys)
        var heartbeat: LoopHeartbeat?
        if let interval = try ServiceNotifier.recommendedWatchdogPingInterval() {
            let notifier = notifier
            let logger = logger
            let writer = work.writer
            heartbeat = LoopHeartbeat(interval: interval) {
                if let busy = writer.busyFor, Self.isStuck(busyFor: busy) {
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
        let forgetNames = forgetNames
        try await work.run {
            try await cancelWhenGracefulShutdown {
                try await serving.run { connection, first in
                    work.effects.use(connection)
                    callers.forgetAll()
                    forgetNames()
                    // One handler per row of the table; what a call does and who may make it are its row's.
                    let handlers = Dictionary(uniqueKeysWithValues: Permissions1Method.allCases.map { method in
                        let handler: BusDeferringMethodHandler = { (call, reply) throws(BusError) -> BusReply? in
                            try Self.serve(method, call, reply, work: work, callers: callers, pending: pending, testHooks: testHooks)
                        }
                        return (method.member, handler)
                    })
                    let object = try connection.export(
                        .permissions1, at: BusNames.Permissions.object, resolvingSenderUID: Self.resolvesSenderUID,
                        handlers: handlers)
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
                    work.outbox.redeliver()  // at start and after every reconnect
                    return [object]
                }
            }
        }
    }

    /// Answers a call of `method`, once its row's access admits the caller (the one check,
    /// ``PermissionService/authorize(_:app:caller:)``): a read (Get, List, ListApps, LastKill) or a
    /// lifecycle report at once, on the bus thread, when the caller is known and admitted without
    /// polkit (or anyone may call); otherwise once the caller is looked up off the bus thread and,
    /// where the row says so, polkit said yes. A change (Set, Reset) is always the writer's, even
    /// root's. TestHook is checked here, on the uid the loop resolved, then served by ``TestHooks``.
    static func serve(
        _ method: Permissions1Method, _ call: BusMethodCall, _ reply: BusPendingReply, work: PermissionWork,
        callers: CallerDirectory, pending: PendingCalls, testHooks: TestHooks?
    ) throws(BusError) -> BusReply? {
        let service = work.service
        guard let request = try PermissionRequest(method, call.arguments) else {
            if case .refused(let error) = service.verdict(method, app: nil, caller: Caller(uid: call.senderUID ?? UInt32.max)) {
                throw error.busError
            }
            try TestHooks.serve(call, hooks: testHooks)
            return .empty
        }
        let atOnce = service.admitsAtOnce(method, app: request.app, caller: callers.cached(call.sender))
        switch request {
        case .set, .reset:
            try hand(request, call, reply, to: work.write, callers: callers, pending: pending)
        case .lifecycle:
            if atOnce { return try answer(work.noteLifecycle(request, caller: callers.cached(call.sender))) }
            try hand(request, call, reply, to: work.lifecycle, callers: callers, pending: pending)
        case .get, .list, .listApps, .lastKill:
            // A read of an app whose change commits after its kill was asked for waits for the commit.
            let waits = request.app.map(service.changesInFlight.isChanging) ?? false
            if atOnce && !waits { return try answer(service.read(request)) }
            try hand(request, call, reply, to: work.read, callers: callers, pending: pending)
        }
        return nil
    }

    private static func answer(_ result: Result<PermissionReply, PermissionServiceError>) throws(BusError) -> BusReply {
        switch result {
        case .success(let reply): return reply.busReply
        case .failure(let error): throw error.busError
        }
    }

    /// The answer to a call whose caller could not be looked up: LimitsExceeded when the lookup
    /// budget refused it (the caller has too many waiting), else Failed; either way try again.
    static func unidentified(_ error: BusError) -> PermissionServiceError {
        let text = "could not learn who the caller is (\(error.message)); nothing was read or changed: try again"
        return error.name == BusError.limitsExceededName ? .limitsExceeded(text) : .failed(text)
    }

    /// Counts the call against its sender's limit and hands it to `take` (``PermissionWork``'s read
    /// or write), which answers through `reply` and frees the count once answered.
    private static func hand(
        _ request: PermissionRequest, _ call: BusMethodCall, _ reply: BusPendingReply,
        to take: (
            PermissionRequest, Bool, @escaping PermissionWork.Identify, @escaping PermissionWork.Reply,
            @escaping @Sendable () -> Void
        ) -> Void,
        callers: CallerDirectory, pending: PendingCalls
    ) throws(BusError) {
        let ticket = try pending.admit(call.sender)
        let sender = call.sender
        take(
            request, call.allowsInteractiveAuthorization,
            { () throws(PermissionServiceError) in
                do throws(BusError) {
                    return try await callers.identity(of: sender)
                } catch {
                    throw Self.unidentified(error)
                }
            },
            { reply.send($0.map(\.busReply).mapError(\.busError)) }, { pending.release(ticket) })
    }
}
