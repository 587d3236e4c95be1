package import Systemd

/// `org.relaunch.App1`'s methods, one row each: the member name, what it takes and answers, and
/// who may call it (STYLE.md 17, as logind's `SD_BUS_METHOD_WITH_ARGS` rows do).
///
/// The interface description (``BusInterface/app1``), the host's dispatch and its one access
/// check, and the clients (``AppClient``, the drivers' links) are all derived from this table, so a
/// new method is one row here and its answer in the host. The case order is the order
/// introspection shows.
package enum App1Method: BusMethodTable {
    // Launch, and what the app shows.
    case ready, state, screen, elements
    // Input, and the test hooks.
    case tap, type, background, foreground, quit, testHook
    // Scene-based apps (CONTRACT.md, Scenes): the windows, and input aimed at one of them.
    case scenes, openScene, closeScene, sceneTap, sceneType, sceneScreen, sceneElements

    /// Who may call a method.
    package enum Access: Sendable, Hashable {
        /// Any caller: nothing it answers is private (`Ready`).
        case anyone
        /// Root, or a caller polkit authorizes for `org.relaunch.app.drive`: input, and what the app
        /// shows (its screen, state and elements may hold what the user typed).
        case driver
        /// Root alone (`TestHook`).
        case root

        /// Whether a caller may go on: `fromRoot` says the bus vouches for uid 0, `driveAuthorized`
        /// that polkit said yes to `org.relaunch.app.drive` for it.
        package func admits(fromRoot: Bool, driveAuthorized: Bool) -> Bool {
            switch self {
            case .anyone: true
            case .driver: fromRoot || driveAuthorized
            case .root: fromRoot
            }
        }
    }

    /// Its row: member name, arguments in and out (as introspection shows them), who may call.
    private var row: (method: BusInterface.Method, access: Access) {
        switch self {
        case .ready: (Method("Ready", returns: [Argument("ready", "(bs)")]), .anyone)
        case .state: (Method("State", returns: [Argument("json", "s")]), .driver)
        case .screen: (Method("Screen", returns: [Argument("screen", "s")]), .driver)
        case .elements: (Method("Elements", returns: [Argument("elements", "a(sss)")]), .driver)
        case .tap: (Method("Tap", [Argument("element", "s")]), .driver)
        case .type: (Method("Type", [Argument("field", "s"), Argument("text", "s")]), .driver)
        case .background: (Method("Background"), .driver)
        case .foreground: (Method("Foreground"), .driver)
        case .quit: (Method("Quit", [Argument("force", "b")]), .driver)
        case .testHook: (Method("TestHook", [Argument("name", "s")]), .root)
        case .scenes: (Method("Scenes", returns: [Argument("scenes", "a(sss)")]), .driver)
        case .openScene: (Method("OpenScene", returns: [Argument("session", "s")]), .driver)
        case .closeScene: (Method("CloseScene", [Argument("session", "s")]), .driver)
        case .sceneTap: (Method("SceneTap", [Argument("session", "s"), Argument("element", "s")]), .driver)
        case .sceneType: (Method("SceneType", [Argument("session", "s"), Argument("field", "s"), Argument("text", "s")]), .driver)
        case .sceneScreen: (Method("SceneScreen", [Argument("session", "s")], returns: [Argument("screen", "s")]), .driver)
        case .sceneElements: (Method("SceneElements", [Argument("session", "s")], returns: [Argument("elements", "a(sss)")]), .driver)
        }
    }

    /// Who may call it.
    package var access: Access { row.access }

    /// Its row of the interface description.
    package var busMethod: BusInterface.Method { row.method }
}

extension BusInterface {
    /// `org.relaunch.App1`, built from its table.
    package static let app1 = BusInterface(name: "org.relaunch.App1", methods: App1Method.allCases.map(\.busMethod))

    /// Where every app serves `org.relaunch.App1`.
    package static let app1ObjectPath = "/org/relaunch/App1"
}
