package import Systemd

/// `org.relaunch.Permissions1`'s methods, one row each: the member name, what it takes and answers,
/// and who may call it (STYLE.md 17, as logind's `SD_BUS_METHOD_WITH_ARGS` rows do).
///
/// The interface description (``BusInterface/permissions1``), permissiond's dispatch and its one
/// access check, and the clients (``PermissionsClient``, sync and async) are all derived from this
/// table, so a new method is one row here, its request in permissiond and its client call. The case
/// order is the order introspection shows.
package enum Permissions1Method: BusMethodTable {
    // Reads, and the one open list.
    case get, list, listApps
    // Changes.
    case set, reset
    // How the app's last instance ended, what it reports of itself, and the sandbox's hooks.
    case lastKill, lifecycle, testHook

    /// Who may call a method. "The app itself" is a process of the unit registered for the app its
    /// first argument names, as systemd says of the caller's pid (never the caller's own word).
    package enum Access: Sendable, Hashable {
        /// Any caller: which apps are registered, which apps.d shows anyone (`ListApps`).
        case anyone
        /// Root, the app itself, or a caller polkit authorizes for ``readAction``: an app's
        /// permissions and kills are private (`Get`, `List`, `LastKill`).
        case reader
        /// Root, or a caller polkit authorizes for ``changeAction`` (`Set`, `Reset`).
        case changer
        /// Root or the app itself, no one else: what an app reports of its own life (`Lifecycle`).
        case appItself
        /// Root alone (`TestHook`).
        case root

        /// polkit's action for reading the permissions and kills of an app the caller is not.
        package static let readAction = "org.relaunch.permissions.read"
        /// polkit's action for changing permissions.
        package static let changeAction = "org.relaunch.permissions.set"

        /// The polkit action that lets in a caller who is neither root nor the app itself, if any.
        package var polkitAction: String? {
            switch self {
            case .reader: Self.readAction
            case .changer: Self.changeAction
            case .anyone, .appItself, .root: nil
            }
        }

        /// Whether a caller may go on: `fromRoot` says the bus vouches for uid 0, `fromTheApp` that
        /// systemd puts it in the app's unit, `polkitAuthorized` that polkit said yes to
        /// ``polkitAction`` for it.
        package func admits(fromRoot: Bool, fromTheApp: Bool, polkitAuthorized: Bool) -> Bool {
            switch self {
            case .anyone: true
            case .reader: fromRoot || fromTheApp || polkitAuthorized
            case .changer: fromRoot || polkitAuthorized
            case .appItself: fromRoot || fromTheApp
            case .root: fromRoot
            }
        }
    }

    /// `Changed(app, permission, old_state, new_state, killed)`: a permission changed, and whether
    /// that killed the app. The interface's one signal.
    package static let changed = BusInterface.Signal("Changed", [
        Argument("app", "s"), Argument("permission", "s"), Argument("old_state", "s"),
        Argument("new_state", "s"), Argument("killed", "b"),
    ])

    /// `KillMainProcess(unit, pid)`: permissiond is killing process `pid`, the main process of `unit`,
    /// for a permission change. A standby of that process (docs/DESIGN.md, "The standby") SIGKILLs it
    /// on hearing this, sooner than systemd's KillUnit, which waits for polkit; permissiond calls
    /// KillUnit itself when the process is not gone within a bound. Believed only from the owner of
    /// `org.relaunch.Permissions1`, like ``changed``.
    package static let killMainProcess = BusInterface.Signal("KillMainProcess", [
        Argument("unit", "s"), Argument("pid", "u"),
    ])

    /// Its row: member name, arguments in and out (as introspection shows them), who may call.
    private var row: (method: BusInterface.Method, access: Access) {
        switch self {
        case .get: (Method("Get", [Argument("app", "s"), Argument("permission", "s")], returns: [Argument("state", "s")]), .reader)
        case .list: (Method("List", [Argument("app", "s")], returns: [Argument("states", "a{ss}")]), .reader)
        case .listApps: (Method("ListApps", returns: [Argument("apps", "as")]), .anyone)
        case .set: (Method("Set", [Argument("app", "s"), Argument("permission", "s"), Argument("state", "s")]), .changer)
        case .reset: (Method("Reset", [Argument("app", "s"), Argument("permission", "s")]), .changer)
        case .lastKill: (Method("LastKill", [Argument("app", "s")], returns: [Argument("kill", "(sssst)")]), .reader)
        case .lifecycle: (Method("Lifecycle", [Argument("app", "s"), Argument("lifecycle", "s")]), .appItself)
        case .testHook: (Method("TestHook", [Argument("name", "s")]), .root)
        }
    }

    /// Who may call it.
    package var access: Access { row.access }

    /// Its row of the interface description.
    package var busMethod: BusInterface.Method { row.method }
}
