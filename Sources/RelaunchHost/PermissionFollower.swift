internal import RelaunchApp
internal import Logging
internal import RelaunchContract
internal import Systemd
internal import RelaunchBus
internal import Synchronization

/// Keeps the app's permissions equal to permissiond's: applies `Changed` signals for this app,
/// and reads them again whenever permissiond's name gets an owner (it was down at launch, or
/// restarted) and right after subscribing (nothing missed between launch and now).
///
/// A signal is believed only from its sender: `Changed` only when the bus daemon says it was sent
/// by the current owner of `org.relaunch.Permissions1`, `NameOwnerChanged` only from the bus
/// daemon itself. Anyone may emit a signal with any path, interface and member, and a unicast
/// signal reaches the app whatever its match rules; the sender's unique name is the one thing the
/// bus daemon fills in itself. A forged `Changed` changes nothing and is logged once per sender.
enum PermissionFollower {
    /// The current owner of permissiond's name, as the bus daemon said, and the senders of forged
    /// signals already logged.
    final class Trust: Sendable {
        /// The bus daemon's `NameOwnerChanged` for permissiond's name alone: without `arg0` every
        /// connection that comes and goes on the bus (each `busctl`, each app's restart) would wake
        /// every app and standby, twice.
        static let ownerChanges = BusMatchRule(
            sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameOwnerChanged", arg0: BusNames.Permissions.service)

        private struct State {
            var owner: String?
            var forgers: Set<String> = []
        }
        private let state = Mutex(State())

        var owner: String? { state.withLock { $0.owner } }

        func setOwner(_ owner: String?) { state.withLock { $0.owner = owner } }

        /// Takes `owner`, the answer to GetNameOwner, unless a NameOwnerChanged already said who
        /// owns the name: that signal is newer than the answer.
        func setOwnerUnlessKnown(_ owner: String) {
            state.withLock { if $0.owner == nil { $0.owner = owner } }
        }

        /// Whether `sender` has not been logged as a forger yet (and is from now on); after 1024
        /// forgers nobody more is logged, so forgers cannot grow the set without bound.
        func firstForgery(by sender: String) -> Bool {
            state.withLock { $0.forgers.count < 1024 && $0.forgers.insert(sender).inserted }
        }

        /// Whether `signal`, one of permissiond's, was sent by the owner of its name; a forgery is
        /// logged once per sender.
        func believes(_ signal: BusSignal, logger: Logger) -> Bool {
            if let sender = signal.sender, sender == owner { return true }
            let who = signal.sender ?? "an unnamed sender"
            if firstForgery(by: who) {
                logger.warning(
                    "ignored a \(signal.member) signal from \(who), which does not own \(BusNames.Permissions.service); only permissiond's signals count",
                    metadata: ["SIGNAL_SENDER": "\(who)"])
            }
            return false
        }

        /// Takes the bus daemon's `NameOwnerChanged` for permissiond's name (no other sender, no
        /// other name): its new owner is trusted from now on.
        /// - Returns: Whether the name got an owner.
        func takeOwnerChange(_ signal: BusSignal) -> Bool {
            guard signal.sender == "org.freedesktop.DBus",
                (try? signal.arguments.string(at: 0)) == BusNames.Permissions.service,
                let newOwner = try? signal.arguments.string(at: 2)
            else { return false }
            setOwner(newOwner.isEmpty ? nil : newOwner)
            return !newOwner.isEmpty
        }
    }

    /// How many `Changed` signals were applied per permission: a reading of all permissions sent
    /// before one of them was applied must not overwrite it when its answer comes later (the answer
    /// resumes a task, which may run after the loop has applied a newer signal).
    final class ChangesHeard: Sendable {
        private let counts = Mutex<[Permission: UInt64]>([:])

        /// The counts now, taken before a reading is sent.
        var now: [Permission: UInt64] { counts.withLock { $0 } }

        func note(_ permission: Permission) {
            counts.withLock { $0[permission, default: 0] += 1 }
        }

        /// Whether no `Changed` of `permission` was applied since `before` (a reading sent then is newest).
        func noneOf(_ permission: Permission, since before: [Permission: UInt64]) -> Bool {
            counts.withLock { $0[permission, default: 0] == before[permission, default: 0] }
        }
    }

    /// What the two subscriptions do with a signal, apart from the bus that delivers it.
    struct Signals<App: HostableApp>: Sendable {
        let host: AppHost<App>
        let trust: Trust
        let logger: Logger
        var heard = ChangesHeard()

        /// permissiond's `Changed`: applied when its sender owns permissiond's name and it is about
        /// this app and one of its permissions; a forgery is logged once per sender.
        func changed(_ signal: BusSignal) {
            guard trust.believes(signal, logger: logger) else { return }
            guard let changedApp = try? signal.arguments.string(at: 0), changedApp == host.configuration.appID,
                let name = try? signal.arguments.string(at: 1), let permission = Permission(rawValue: name),
                App.permissions.contains(permission),
                let raw = try? signal.arguments.string(at: 3), let state = PermissionState(rawValue: raw)
            else { return }
            heard.note(permission)
            host.updatePermission(permission, to: state, because: "permissiond said it changed")
        }

        /// The bus daemon's `NameOwnerChanged` for permissiond's name: the new owner is trusted from now on.
        /// - Returns: Whether the name got an owner (permissiond is back: read the permissions again).
        func nameOwnerChanged(_ signal: BusSignal) -> Bool {
            trust.takeOwnerChange(signal)
        }
    }

    static func follow<App: HostableApp>(
        on connection: BusConnection, host: AppHost<App>, logger: Logger
    ) throws(BusError) -> [BusSubscription] {
        let trust = Trust()
        let signals = Signals(host: host, trust: trust, logger: logger)
        let changed = try connection.subscribe(
            // No sender= in the rule: sd-bus would compare the well-known name with the unique name
            // the message carries. The handler checks the sender against the owner instead.
            // arg0: this app's changes alone; the others' would wake it for nothing.
            BusMatchRule(
                path: BusNames.Permissions.object, interface: BusNames.Permissions.interface,
                member: Permissions1Method.changed.name, arg0: host.configuration.appID)
        ) { signal in signals.changed(signal) }
        let owner = try connection.subscribe(Trust.ownerChanges) { signal in
            if signals.nameOwnerChanged(signal) {
                reread(on: connection, host: host, logger: logger, why: "permissiond is back", trust: nil, heard: signals.heard)
            }
        }
        reread(on: connection, host: host, logger: logger, why: "following permissiond from now on", trust: trust, heard: signals.heard)
        return [changed, owner]
    }

    /// Asks permissiond for the app's permissions (first, with `trust`, who owns its name) and
    /// applies the answer, but not to a permission whose `Changed` was applied after the question was
    /// sent (`heard`: that signal is newer). The calls are completed by the connection's loop, never
    /// waited for while holding the connection: the loop goes on serving and pinging the watchdog
    /// meanwhile.
    private static func reread<App: HostableApp>(
        on connection: BusConnection, host: AppHost<App>, logger: Logger, why: String, trust: Trust?,
        heard: ChangesHeard
    ) {
        Task {
            do throws(BusError) {
                if let trust {
                    let owner = try await connection.callAsync(
                        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                        member: "GetNameOwner", arguments: [.string(BusNames.Permissions.service)], timeout: .seconds(5)
                    ).string(at: 0)
                    trust.setOwnerUnlessKnown(owner)
                }
                let before = heard.now
                let listed = try await PermissionsClient(bus: connection, timeout: .seconds(5))
                    .list(app: host.configuration.appID)
                for permission in App.permissions where heard.noneOf(permission, since: before) {
                    guard let state = listed[permission.rawValue].flatMap(PermissionState.init(rawValue:)) else { continue }
                    host.updatePermission(permission, to: state, because: why)
                }
            } catch {
                logger.notice("could not read the app's permissions (\(why)); the next Changed or restart of permissiond corrects it", metadata: [
                    "ERROR": "\(error)",
                ])
            }
        }
    }
}
