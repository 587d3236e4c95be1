import Dispatch
import Synchronization
package import Logging
package import PermissionStore
import RelaunchBus
import RelaunchContract
package import Systemd

/// Performs what the permission service asks for after a reply: journal entries and `Changed` signals.
///
/// The bus thread hands each call's effects to ``submit(_:)`` before its handler returns; a serial
/// dispatch queue performs them in order, so effects of successive calls keep the order of the
/// calls. The reply goes out before the call's signals: the loop thread holds the connection while it
/// dispatches and answers, and the queue needs the connection to emit. The queue runs on its own
/// (overcommit) threads, not Swift's cooperative pool, so waiting for the connection there cannot
/// starve the task the bus thread is waiting for, whatever the number of cores.
package final class EffectPerformer: Sendable {
    /// The serving connection, which emits the signals (a new one after a reconnect).
    private let connection = Mutex<BusConnection?>(nil)
    /// The journal.
    package let logger: Logger
    private let queue = DispatchQueue(label: "permissiond.effects")

    /// Performs effects with `logger`, and signals on the connection given to ``use(_:)``.
    package init(logger: Logger) {
        self.logger = logger
    }

    /// Emits the signals that follow on `connection`.
    package func use(_ connection: BusConnection) {
        self.connection.withLock { $0 = connection }
    }

    /// Queues `effects`, performed in order after everything queued before.
    package func submit(_ effects: [PermissionEffect]) {
        guard !effects.isEmpty else { return }
        queue.async { self.perform(effects) }
    }

    /// Returns once everything submitted so far has been performed.
    package func drained() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async { done.resume() }
        }
    }

    /// Emits `KillMainProcess(unit, pid)` now, ahead of whatever effects are queued: a standby of the
    /// process kills it on hearing this (``SystemdUnitController``'s standby route). Returns whether
    /// the signal was sent.
    package func requestKill(unit: String, pid: UInt32) -> Bool {
        guard let connection = connection.withLock({ $0 }) else { return false }
        do throws(BusError) {
            try connection.emitSignal(
                path: BusNames.Permissions.object, interface: BusNames.Permissions.interface,
                member: Permissions1Method.killMainProcess.name, arguments: [.string(unit), .uint32(pid)])
            return true
        } catch {
            logger.warning("could not ask a standby to kill \(unit)'s process \(pid): \(error); systemd kills it")
            return false
        }
    }

    /// Performs `effects` in order; failures are logged, never thrown (the change is committed).
    private func perform(_ effects: [PermissionEffect]) {
        for effect in effects {
            switch effect {
            case .killed(let kill):
                logger.debug("killed \(kill.unit) (invocation \(kill.invocationID)) for \(kill.app)")
            case .log(let entry):
                log(entry)
            case .emitChanged(let signal):
                emit(signal)
            case .problem(let text):
                logger.error("\(text)")
            }
        }
    }

    /// One journal entry with the entry's MESSAGE_ID and exactly its fields.
    private func log(_ entry: PermissionStore.JournalEntry) {
        var metadata: Logger.Metadata = [JournalLogHandler.messageIDKey: .string(entry.messageID.rawValue)]
        for (name, value) in entry.fields { metadata[name] = .string(value) }
        logger.notice("\(entry.message)", metadata: metadata)
    }

    private func emit(_ signal: ChangedSignal) {
        guard let connection = connection.withLock({ $0 }) else { return }
        do throws(BusError) {
            try connection.emitSignal(
                path: BusNames.Permissions.object, interface: BusNames.Permissions.interface,
                member: Permissions1Method.changed.name, arguments: signal.busArguments)
        } catch {
            logger.error(
                "could not emit Changed for \(signal.app) \(signal.permission): \(error); listeners miss this change")
        }
    }
}
