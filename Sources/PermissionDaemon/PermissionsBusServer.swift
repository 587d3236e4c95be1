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
/// the bus daemon, its unit from systemd. Reads (Get, List, LastKill) are private: root and the
/// app itself are answered on the bus thread at once, from the store's memory, once the caller is
/// known; anyone else waits for polkit (`org.relaunch.permissions.read`), off the bus thread.
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
    /// running-instance question, then every inline kill attempt (with its start-limit reset) and the
    /// waits between them, plus the store's commit. A write running longer than this is stuck, and
    /// the watchdog pings stop (so `WatchdogSec=` later systemd aborts and restarts the daemon).
    package static let stuckWriteLimit: Duration = {
        let attempts = PermissionService.defaultInlineRetryDelays
        let calls = SystemdUnitController.callsPerRunningInstance + attempts.count * SystemdUnitController.callsPerKill
        return SystemdUnitController.callTimeout * calls + attempts.reduce(.zero, +) + .seconds(5)
    }()
    /// Whether a call to `member` needs the caller's uid from the bus daemon before it is handled:
    /// TestHook only (root only, decided on the loop); the other methods ask the caller directory
    /// off the loop thread, and a round trip per read would only slow them.
    @Sendable package static func resolvesSenderUID(_ member: String) -> Bool { member == "TestHook" }

    /// Whether a write that has been running for `busy` is stuck (past ``stuckWriteLimit``).
    package static func isStuck(busyFor busy: Duration) -> Bool { busy > stuckWriteLimit }

    /// The most calls one caller (unique bus name) may have waiting for an answer at once.
    static let pendingPerCaller = 16
    /// Where callers' identities are looked up: a link that serves nothing else.
    let link: BusLink

    /// Forgets what was remembered of callers by their unique names elsewhere (polkit's refusals):
    /// run at every (re)connect, since a new bus daemon gives the same names to other connections.
    let forgetNames: @Sendable () -> Void

    package init(
        service: PermissionService, notifier: ServiceNotifier, logger: Logger, testHooks: TestHooks?, link: BusLink,
        forgetNames: @escaping @Sendable () -> Void = {}
    ) {
        self.forgetNames = forgetNames
        self.service = service
        self.notifier = notifier
        self.logger = logger
        self.testHooks = testHooks
        self.link = link
    }

    package func run() async throws {
        let work = PermissionWork(service: service, effects: EffectPerformer(logger: logger))
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
                    let read: BusDeferringMethodHandler = { (call, reply) throws(BusError) -> BusReply? in
                        try Self.read(call, reply, work: work, callers: callers, pending: pending)
                    }
                    let write: BusDeferringMethodHandler = { (call, reply) throws(BusError) -> BusReply? in
                        try Self.write(call, reply, work: work, callers: callers, pending: pending)
                    }
                    let lifecycle: BusDeferringMethodHandler = { (call, reply) throws(BusError) -> BusReply? in
                        try Self.lifecycle(call, reply, work: work, callers: callers, pending: pending)
                    }
                    let object = try connection.export(
                        .permissions1, at: BusNames.Permissions.object, resolvingSenderUID: Self.resolvesSenderUID,
                        handlers: [
                            "Get": read, "List": read, "ListApps": read, "LastKill": read, "Set": write, "Reset": write,
                            "Lifecycle": lifecycle,
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
                    work.outbox.redeliver()  // at start and after every reconnect
                    return [object]
                }
            }
        }
    }

    /// Answers a read (Get, List, ListApps, LastKill): at once, on the bus thread, from memory, when
    /// the caller is known and is root or the app itself (or the read is ListApps); otherwise once
    /// the caller is looked up and, if it is neither, polkit said yes.
    static func read(
        _ call: BusMethodCall, _ reply: BusPendingReply, work: PermissionWork, callers: CallerDirectory,
        pending: PendingCalls
    ) throws(BusError) -> BusReply? {
        let service = work.service
        let request = try PermissionRequest(call)
        if let caller = callers.cached(call.sender), service.readsWithoutAsking(request, caller: caller) {
            return try answer(service.read(request))
        }
        if case .listApps = request { return try answer(service.read(request)) }
        try hand(request, call, reply, to: work.read, callers: callers, pending: pending)
        return nil
    }

    private static func answer(_ result: Result<PermissionReply, PermissionServiceError>) throws(BusError) -> BusReply {
        switch result {
        case .success(let reply): return reply.busReply
        case .failure(let error): throw error.busError
        }
    }

    /// Takes an app's lifecycle report: at once when the caller is known to be the app or root,
    /// else once it is looked up (anyone else gets AccessDenied).
    static func lifecycle(
        _ call: BusMethodCall, _ reply: BusPendingReply, work: PermissionWork, callers: CallerDirectory,
        pending: PendingCalls
    ) throws(BusError) -> BusReply? {
        let request = try PermissionRequest(call)
        if let caller = callers.cached(call.sender), work.service.readsWithoutAsking(request, caller: caller) {
            return try answer(work.noteLifecycle(request))
        }
        try hand(request, call, reply, to: work.lifecycle, callers: callers, pending: pending)
        return nil
    }

    /// Takes a write (Set, Reset): asks polkit off the bus thread, then the writer commits, kills
    /// and answers; the journal entries and signals follow.
    static func write(
        _ call: BusMethodCall, _ reply: BusPendingReply, work: PermissionWork, callers: CallerDirectory,
        pending: PendingCalls
    ) throws(BusError) -> BusReply? {
        try hand(try PermissionRequest(call), call, reply, to: work.write, callers: callers, pending: pending)
        return nil
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
