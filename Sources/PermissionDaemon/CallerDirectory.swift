package import PermissionStore
import Synchronization
package import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// Who a bus caller is, as the bus daemon and systemd vouch for it: never what the caller says.
///
/// The uid and pid are the credentials dbus-daemon took from the socket when the caller connected
/// (`GetConnectionCredentials`, SO_PEERCRED); the unit is systemd's answer for that pid
/// (`GetUnitByPID`). The pid is pinned with a pidfd while systemd is asked, and afterwards the
/// process must still be alive and its connection still open: so a pid that was reused by another
/// process between the two questions is never attributed to the caller.
///
/// A unique name is never given to another connection while the bus runs, so an identity is looked
/// up once per connection and remembered (an app that reads many times pays one lookup); lookups
/// for the same name that overlap share one. Only answers are remembered: a lookup that failed (the
/// bus or systemd did not answer, or the budget refused it) is asked again at the caller's next
/// call. Forgotten after a reconnect and when the directory grows past ``capacity``.
///
/// Lookups are admitted by budget (docs/DESIGN.md, "Budgets for strangers"): the credentials
/// question, asked before anyone's uid is known, by ``credentialLimits`` (all callers share it, and
/// dbus-daemon answers it itself in microseconds); the unit question, asked only for callers that
/// are not root, per uid by ``unitLimits``. Together they stay below dbus-daemon's 128 pending
/// replies per connection on the link they use, which serves nothing else.
package final class CallerDirectory: Sendable {
    private struct Known {
        /// Identities looked up.
        var resolved: [String: PermissionStore.Caller] = [:]
        /// Lookups on their way, shared by every call from the same name that comes meanwhile.
        var looking: [String: Task<Result<PermissionStore.Caller, BusError>, Never>] = [:]
    }

    /// What the directory has for a name: its identity, or the lookup on its way.
    private enum Found {
        case known(PermissionStore.Caller)
        case lookup(Task<Result<PermissionStore.Caller, BusError>, Never>)
    }

    private let link: BusLink
    private let known = Mutex(Known())
    /// The credentials questions, before anyone's uid is known: one key, first come first served.
    private let credentialBudget: WorkBudget<Int>
    /// The unit questions, per uid.
    private let unitBudget: WorkBudget<UInt32>
    package static let capacity = 4096
    static let callTimeout: Duration = .seconds(5)
    /// 32 credentials questions on their way at once; the others wait their turn (a queue as long as
    /// the bus has connections: dbus-daemon's system bus allows 2048 completed connections).
    package static let credentialLimits = WorkBudgetLimits(runningPerKey: 32, waitingPerKey: 4096, running: 32)
    /// 4 unit questions of one uid at once, 256 waiting (as many as its connections may be), 32 in all.
    package static let unitLimits = WorkBudgetLimits(runningPerKey: 4, waitingPerKey: 256, running: 32)

    /// Looks callers up over `link`, a connection used for nothing else.
    package init(
        link: BusLink, credentialLimits: WorkBudgetLimits = CallerDirectory.credentialLimits,
        unitLimits: WorkBudgetLimits = CallerDirectory.unitLimits
    ) {
        self.link = link
        credentialBudget = WorkBudget("caller lookups", limits: credentialLimits)
        unitBudget = WorkBudget("caller lookups", limits: unitLimits)
    }

    /// The identity of `sender` when it is already known (no waiting), else nil.
    package func cached(_ sender: String?) -> PermissionStore.Caller? {
        guard let sender else { return nil }
        return known.withLock { $0.resolved[sender] }
    }

    /// The identity of `sender`.
    ///
    /// - Throws: ``BusError`` when the bus or systemd could not tell (not answered in time, or the
    ///   lookup budget refused it); nothing is remembered then.
    package func identity(of sender: String?) async throws(BusError) -> PermissionStore.Caller {
        guard let sender else { return PermissionStore.Caller(uid: UInt32.max) }
        let found = known.withLock { known -> Found in
            if let caller = known.resolved[sender] { return .known(caller) }
            if let task = known.looking[sender] { return .lookup(task) }
            let task = Task { () -> Result<PermissionStore.Caller, BusError> in
                let result: Result<PermissionStore.Caller, BusError>
                do throws(BusError) {
                    result = .success(try await self.lookUp(sender))
                } catch {
                    result = .failure(error)
                }
                self.known.withLock { known in
                    known.looking[sender] = nil
                    guard case .success(let caller) = result else { return }
                    if known.resolved.count >= Self.capacity { known.resolved = [:] }
                    known.resolved[sender] = caller
                }
                return result
            }
            known.looking[sender] = task
            return .lookup(task)
        }
        switch found {
        case .known(let caller): return caller
        case .lookup(let task): return try await task.value.get()
        }
    }

    /// Forgets every name (the bus connection was made anew).
    package func forgetAll() { known.withLock { $0 = Known() } }

    /// Asks the bus for the caller's credentials, then systemd for its unit (not for root: root
    /// reads and changes everything anyway), each within its budget.
    func lookUp(_ sender: String) async throws(BusError) -> PermissionStore.Caller {
        let link = link
        let credentials = try await credentialBudget.run(for: 0, describedAs: "the bus") { () throws(BusError) in
            try await Self.connectionCredentials(sender, over: link)
        }
        var caller = PermissionStore.Caller(uid: credentials.uid, busName: sender)
        guard Self.asksForUnit(uid: credentials.uid, pid: credentials.pid) else { return caller }
        caller.unit = try await unitBudget.run(for: credentials.uid, describedAs: "uid \(credentials.uid)") {
            () throws(BusError) in
            try await Self.unit(of: credentials.pid, sender: sender, over: link)
        }
        if caller.unit != nil { caller.pid = credentials.pid }
        return caller
    }

    /// Whether a caller's unit is worth asking systemd for: not root's (root reads and changes
    /// everything anyway), and only with a pid to ask about.
    package static func asksForUnit(uid: UInt32, pid: UInt32) -> Bool {
        uid != 0 && pid > 0
    }

    /// `GetConnectionCredentials`: the uid and pid dbus-daemon recorded when `sender` connected.
    private static func connectionCredentials(_ sender: String, over link: BusLink) async throws(BusError) -> (uid: UInt32, pid: UInt32) {
        let reply = try await link.callAsync(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetConnectionCredentials", arguments: [.string(sender)], timeout: callTimeout)
        var uid: UInt32?
        var pid: UInt32 = 0
        if let first = reply.first, case .array(_, let entries) = first {
            for case .dictEntry(.string(let key), .variant(let value)) in entries {
                switch (key, value) {
                case ("UnixUserID", .uint32(let number)): uid = number
                case ("ProcessID", .uint32(let number)): pid = number
                default: break
                }
            }
        }
        guard let uid else { throw BusError(name: BusError.failedName, message: "the bus did not tell the uid of \(sender)") }
        return (uid, pid)
    }

    /// The unit systemd puts `pid` in, if that pid is still the caller's process throughout; nil
    /// when systemd says it is in no unit, or the process or its connection is gone.
    ///
    /// - Throws: ``BusError`` when systemd or the bus did not answer: not an answer to remember.
    private static func unit(of pid: UInt32, sender: String, over link: BusLink) async throws(BusError) -> String? {
        guard let process = try? ProcessHandle(pid: Int32(bitPattern: pid)) else { return nil }  // gone already
        let path: String
        do throws(BusError) {
            path = try await link.callAsync(
                destination: SystemdManager.destination, path: SystemdManager.path, interface: SystemdManager.managerInterface,
                member: "GetUnitByPID", arguments: [.uint32(pid)], timeout: callTimeout
            ).string(at: 0)
        } catch where isAnswerOfNoUnit(error) {
            return nil
        }
        // The process systemd looked at must still be the one the pidfd holds (a pidfd turns
        // readable when its process exits, so its pid cannot have been reused while it is not)...
        guard process.isAlive else { return nil }
        // ...and the caller's connection must still be open. Its pid cannot have changed: the
        // bus daemon records a connection's credentials once, when it connects, and never gives
        // its unique name to another connection; so the name's owner is the process asked about.
        let stillConnected = try await link.callAsync(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameHasOwner", arguments: [.string(sender)], timeout: callTimeout
        ).bool(at: 0)
        guard stillConnected else { return nil }
        return SystemdManager.unitName(fromObjectPath: path)
    }

    /// Whether systemd's error to GetUnitByPID is its answer "that pid is in no unit" (or is no
    /// process it knows), which is worth remembering, rather than a failure to answer.
    package static func isAnswerOfNoUnit(_ error: BusError) -> Bool {
        error.name == "org.freedesktop.systemd1.NoUnitForPID" || error.name == "org.freedesktop.systemd1.NoSuchProcess"
    }
}
