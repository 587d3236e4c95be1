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
/// for the same name that overlap share one. Forgotten after a reconnect and when the directory
/// grows past ``capacity``.
package final class CallerDirectory: Sendable {
    private struct Known {
        /// Identities looked up.
        var resolved: [String: PermissionStore.Caller] = [:]
        /// Lookups on their way, shared by every call from the same name that comes meanwhile.
        var looking: [String: Task<PermissionStore.Caller, Never>] = [:]
    }

    /// What the directory has for a name: its identity, or the lookup on its way.
    private enum Found {
        case known(PermissionStore.Caller)
        case lookup(Task<PermissionStore.Caller, Never>)
    }

    private let link: BusLink
    private let known = Mutex(Known())
    package static let capacity = 4096
    static let callTimeout: Duration = .seconds(5)

    package init(link: BusLink) {
        self.link = link
    }

    /// The identity of `sender` when it is already known (no waiting), else nil.
    package func cached(_ sender: String?) -> PermissionStore.Caller? {
        guard let sender else { return nil }
        return known.withLock { $0.resolved[sender] }
    }

    /// The identity of `sender`; unknown parts (the bus could not tell) stay nobody and no unit.
    package func identity(of sender: String?) async -> PermissionStore.Caller {
        guard let sender else { return PermissionStore.Caller(uid: UInt32.max) }
        let link = link
        let found = known.withLock { known -> Found in
            if let caller = known.resolved[sender] { return .known(caller) }
            if let task = known.looking[sender] { return .lookup(task) }
            let task = Task {
                let caller = await Self.lookUp(sender, over: link)
                self.known.withLock { known in
                    known.looking[sender] = nil
                    // A caller the bus could not tell anything of is asked again next time.
                    guard caller.uid != UInt32.max else { return }
                    if known.resolved.count >= Self.capacity { known.resolved = [:] }
                    known.resolved[sender] = caller
                }
                return caller
            }
            known.looking[sender] = task
            return .lookup(task)
        }
        switch found {
        case .known(let caller): return caller
        case .lookup(let task): return await task.value
        }
    }

    /// Forgets every name (the bus connection was made anew).
    package func forgetAll() { known.withLock { $0 = Known() } }

    /// Asks the bus for the caller's credentials, then systemd for its unit (not for root: root
    /// reads and changes everything anyway).
    package static func lookUp(_ sender: String, over link: BusLink) async -> PermissionStore.Caller {
        var caller = PermissionStore.Caller(uid: UInt32.max, busName: sender)
        let credentials: (uid: UInt32, pid: UInt32)
        do throws(BusError) {
            credentials = try await connectionCredentials(sender, over: link)
        } catch {
            return caller
        }
        caller.uid = credentials.uid
        guard asksForUnit(uid: credentials.uid, pid: credentials.pid) else { return caller }
        caller.unit = await unit(of: credentials.pid, sender: sender, over: link)
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

    /// The unit systemd puts `pid` in, if that pid is still the caller's process throughout.
    private static func unit(of pid: UInt32, sender: String, over link: BusLink) async -> String? {
        guard let process = try? ProcessHandle(pid: Int32(bitPattern: pid)) else { return nil }  // gone already
        do throws(BusError) {
            let path = try await link.callAsync(
                destination: SystemdManager.destination, path: SystemdManager.path, interface: SystemdManager.managerInterface,
                member: "GetUnitByPID", arguments: [.uint32(pid)], timeout: callTimeout
            ).string(at: 0)
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
        } catch {
            return nil
        }
    }
}
