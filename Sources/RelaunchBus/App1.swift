package import RelaunchContract
package import Systemd

// org.relaunch.App1, described once: the driver interface every Relaunch app serves at
// /org/relaunch/App1 on its own bus name. Apps export it from this description; relaunchctl and the
// scenario runner call it through `AppClient`. Adding a method means adding it here (description
// and client) and answering it in the apps (the host library's handler).

extension BusInterface {
    /// `org.relaunch.App1`.
    package static let app1 = BusInterface(
        name: "org.relaunch.App1",
        methods: [
            Method("Ready", returns: [Argument("ready", "(bs)")]),
            Method("State", returns: [Argument("json", "s")]),
            Method("Screen", returns: [Argument("screen", "s")]),
            Method("Elements", returns: [Argument("elements", "a(sss)")]),
            Method("Tap", [Argument("element", "s")]),
            Method("Type", [Argument("field", "s"), Argument("text", "s")]),
            Method("Background"),
            Method("Foreground"),
            Method("Quit", [Argument("force", "b")]),
            Method("TestHook", [Argument("name", "s")]),
            // Scene-based apps (CONTRACT.md, Scenes): the windows, and input aimed at one of them.
            Method("Scenes", returns: [Argument("scenes", "a(sss)")]),
            Method("OpenScene", returns: [Argument("session", "s")]),
            Method("CloseScene", [Argument("session", "s")]),
            Method("SceneTap", [Argument("session", "s"), Argument("element", "s")]),
            Method("SceneType", [Argument("session", "s"), Argument("field", "s"), Argument("text", "s")]),
            Method("SceneScreen", [Argument("session", "s")], returns: [Argument("screen", "s")]),
            Method("SceneElements", [Argument("session", "s")], returns: [Argument("elements", "a(sss)")]),
        ])

    /// Where every app serves `org.relaunch.App1`.
    package static let app1ObjectPath = "/org/relaunch/App1"
}

/// An element's row on the bus (`Elements()`).
extension AppElement {
    /// The `(sss)` value of `Elements()`.
    package var busValue: BusValue { .structure([.string(name), .string(kind.rawValue), .string(description)]) }

    /// The elements of an `Elements()` reply (`a(sss)`); an unknown kind reads as a tap.
    package static func elements(from reply: BusValues) throws(BusError) -> [AppElement] {
        try reply.array(at: 0).map { (row) throws(BusError) -> AppElement in
            let fields = BusValues(row.structureValue ?? [])
            return AppElement(
                name: try fields.string(at: 0), kind: AppElement.Kind(rawValue: try fields.string(at: 1)) ?? .tap,
                description: try fields.string(at: 2))
        }
    }
}

/// A window's row on the bus (`Scenes()`).
extension AppScene {
    /// The `(sss)` value of `Scenes()`.
    package var busValue: BusValue { .structure([.string(session), .string(title), .string(activityType)]) }

    /// The windows of a `Scenes()` reply (`a(sss)`).
    package static func scenes(from reply: BusValues) throws(BusError) -> [AppScene] {
        try reply.array(at: 0).map { (row) throws(BusError) -> AppScene in
            let fields = BusValues(row.structureValue ?? [])
            return AppScene(session: try fields.string(at: 0), title: try fields.string(at: 1), activityType: try fields.string(at: 2))
        }
    }
}

/// The typed client of `org.relaunch.App1` on one app's bus name.
package struct AppClient: Sendable {
    /// The connection calls go through.
    package let bus: BusConnection
    /// The app's bus name, e.g. `org.relaunch.CheckInDemo1`.
    package let busName: String
    /// How long one call may take (nil: sd-bus's default).
    package var timeout: Duration?

    /// A client of the app at `busName`.
    package init(bus: BusConnection, busName: String, timeout: Duration? = nil) {
        self.bus = bus
        self.busName = busName
        self.timeout = timeout
    }

    /// `Ready() -> (finished launching, $INVOCATION_ID)`.
    package func ready() throws(BusError) -> (finished: Bool, invocationID: String) {
        let values = try call("Ready").structure(at: 0)
        return (try values.bool(at: 0), try values.string(at: 1))
    }

    /// `State()`: the state JSON.
    package func state() throws(BusError) -> String { try call("State").string(at: 0) }

    /// `Screen()`: the screen drawn as text.
    package func screen() throws(BusError) -> String { try call("Screen").string(at: 0) }

    /// `Elements()`: what the current screen accepts.
    package func elements() throws(BusError) -> [AppElement] {
        try AppElement.elements(from: call("Elements"))
    }

    /// `Tap(element)`.
    package func tap(_ element: String) throws(BusError) { try call("Tap", [.string(element)]) }

    /// `Type(field, text)`.
    package func type(field: String, text: String) throws(BusError) { try call("Type", [.string(field), .string(text)]) }

    /// `Background()`.
    package func background() throws(BusError) { try call("Background") }

    /// `Foreground()`.
    package func foreground() throws(BusError) { try call("Foreground") }

    /// `Quit(force)`.
    package func quit(force: Bool) throws(BusError) { try call("Quit", [.bool(force)]) }

    /// `TestHook(name)` (root, `RELAUNCH_TEST_HOOKS=1` only).
    package func testHook(_ name: String) throws(BusError) { try call("TestHook", [.string(name)]) }

    /// `Scenes()`: the open windows of a scene-based app, in the order they were opened.
    package func scenes() throws(BusError) -> [AppScene] {
        try AppScene.scenes(from: call("Scenes"))
    }

    /// `OpenScene()`: opens a window; returns its session's persistent identifier.
    package func openScene() throws(BusError) -> String { try call("OpenScene").string(at: 0) }

    /// `CloseScene(session)`: closes that window; its saved state goes.
    package func closeScene(_ session: String) throws(BusError) { try call("CloseScene", [.string(session)]) }

    /// `SceneTap(session, element)`.
    package func tap(_ element: String, inScene session: String) throws(BusError) {
        try call("SceneTap", [.string(session), .string(element)])
    }

    /// `SceneType(session, field, text)`.
    package func type(field: String, text: String, inScene session: String) throws(BusError) {
        try call("SceneType", [.string(session), .string(field), .string(text)])
    }

    /// `SceneScreen(session)`: that window drawn as text.
    package func screen(ofScene session: String) throws(BusError) -> String {
        try call("SceneScreen", [.string(session)]).string(at: 0)
    }

    /// `SceneElements(session)`: what that window accepts.
    package func elements(ofScene session: String) throws(BusError) -> [AppElement] {
        try AppElement.elements(from: call("SceneElements", [.string(session)]))
    }

    @discardableResult
    private func call(_ member: String, _ arguments: [BusValue] = []) throws(BusError) -> BusValues {
        try bus.call(
            destination: busName, path: BusInterface.app1ObjectPath, interface: BusInterface.app1.name,
            member: member, arguments: arguments, timeout: timeout)
    }
}
