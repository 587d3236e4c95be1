import Logging
import PermissionStore
import RelaunchContract
import ServiceLifecycle
import Systemd

/// Serves `org.relaunch.Permissions1` on the system bus until graceful shutdown.
///
/// Order at start: export the object, start the loop, then take the well-known name, so that the
/// unit (Type=dbus) is active only when calls can be answered. Each call runs on the bus thread,
/// which blocks while ``PermissionService/handle(_:callerUID:)`` runs as a task; the reply goes out
/// when the handler returns, and the outcome's effects follow through ``EffectPerformer``.
/// Graceful shutdown stops the loop (a call being handled is answered first) and waits for the
/// effects already queued.
struct PermissionsBusServer: Service {
    /// The serving connection (not the one used to call systemd).
    let connection: BusConnection
    /// The transport-free service.
    let service: PermissionService
    /// The journal.
    let logger: Logger

    func run() async throws {
        let effects = EffectPerformer(connection: connection, logger: logger)
        let service = service
        let object = try connection.export(.permissions1, at: BusNames.Permissions.object) { call throws(BusError) in
            try Self.answer(call, service: service, effects: effects)
        }
        defer { object.cancel() }
        do {
            try await withGracefulShutdownHandler {
                try await withThrowingDiscardingTaskGroup { serving in
                    serving.addTask { try await connection.run() }
                    do throws(BusError) {
                        try connection.requestName(BusNames.Permissions.service)
                    } catch {
                        throw DaemonError(
                            "cannot own \(BusNames.Permissions.service) on the system bus: \(error); "
                                + "is another permissiond running (busctl status \(BusNames.Permissions.service))?")
                    }
                    let apps = service.configuration.apps.joined(separator: ", ")
                    logger.notice(
                        "serving \(BusNames.Permissions.service): kill policy \(service.configuration.killPolicy), apps \(apps), database \(service.database.path)")
                }
            } onGracefulShutdown: {
                connection.stop()
            }
        } catch {
            await effects.drained()
            throw error
        }
        await effects.drained()  // the journal entries and signals of the last calls
    }

    /// Answers one call on the bus thread; queues the outcome's effects before returning the reply.
    static func answer(
        _ call: BusMethodCall, service: PermissionService, effects: EffectPerformer
    ) throws(BusError) -> BusReply {
        let request = try PermissionRequest(call)
        let callerUID: UInt32
        if let uid = call.senderUID {
            callerUID = uid
        } else if request.needsRoot {
            throw .accessDenied(
                "\(call.interface.name).\(call.member) may only be called by root (uid 0), "
                    + "and the bus did not say who the caller is")
        } else {
            callerUID = UInt32.max  // reads do not depend on the caller
        }
        let outcome = awaitBlocking { await service.handle(request, callerUID: callerUID) }
        effects.submit(outcome.effects)
        switch outcome.reply {
        case .success(let reply): return reply.busReply
        case .failure(let error): throw error.busError
        }
    }
}
