import Logging
import PermissionStore
import RelaunchContract
import Systemd

/// Performs what the permission service asks for after a reply: journal entries and `Changed` signals.
///
/// Runs off the bus thread, after the handler has returned: the reply is queued on the connection
/// before any signal of the same call (the loop holds the connection while it dispatches and
/// answers), and effects of successive calls keep their order (one stream, one consumer).
struct EffectPerformer: Sendable {
    /// The serving connection, which emits the signals.
    let connection: BusConnection
    /// The journal.
    let logger: Logger

    /// Performs `effects` in order; failures are logged, never thrown (the change is committed).
    func perform(_ effects: [PermissionEffect]) {
        for effect in effects {
            switch effect {
            case .killed(let kill):
                logger.debug("killed \(kill.unit) (invocation \(kill.invocationID)) for \(kill.app)")
            case .log(let entry):
                log(entry)
            case .emitChanged(let signal):
                emit(signal)
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
        do throws(BusError) {
            try connection.emitSignal(
                path: BusNames.Permissions.object, interface: BusNames.Permissions.interface,
                member: "Changed", arguments: signal.busArguments)
        } catch {
            logger.error(
                "could not emit Changed for \(signal.app) \(signal.permission): \(error); listeners miss this change")
        }
    }
}
