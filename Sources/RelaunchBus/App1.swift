package import RelaunchContract
package import Systemd

// org.relaunch.App1, described once: the driver interface every Relaunch app serves at
// /org/relaunch/App1 on its own bus name. Its methods are the rows of `App1Method`; apps export the
// description built from them, relaunchctl and the scenario runner call them through `AppClient`.
// Adding a method means adding a row there, a client call here, and its answer in the host.

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
        let values = try call(.ready).structure(at: 0)
        return (try values.bool(at: 0), try values.string(at: 1))
    }

    /// `State()`: the state JSON.
    package func state() throws(BusError) -> String { try call(.state).string(at: 0) }

    /// `Screen()`: the screen drawn as text.
    package func screen() throws(BusError) -> String { try call(.screen).string(at: 0) }

    /// `Elements()`: what the current screen accepts.
    package func elements() throws(BusError) -> [AppElement] {
        try AppElement.elements(from: call(.elements))
    }

    /// `Tap(element)`.
    package func tap(_ element: String) throws(BusError) { try call(.tap, [.string(element)]) }

    /// `Type(field, text)`.
    package func type(field: String, text: String) throws(BusError) { try call(.type, [.string(field), .string(text)]) }

    /// `Background()`.
    package func background() throws(BusError) { try call(.background) }

    /// `Foreground()`.
    package func foreground() throws(BusError) { try call(.foreground) }

    /// `Quit(force)`.
    package func quit(force: Bool) throws(BusError) { try call(.quit, [.bool(force)]) }

    /// `TestHook(name)` (root, `RELAUNCH_TEST_HOOKS=1` only).
    package func testHook(_ name: String) throws(BusError) { try call(.testHook, [.string(name)]) }

    /// `Scenes()`: the open windows of a scene-based app, in the order they were opened.
    package func scenes() throws(BusError) -> [AppScene] {
        try AppScene.scenes(from: call(.scenes))
    }

    /// `OpenScene()`: opens a window; returns its session's persistent identifier.
    package func openScene() throws(BusError) -> String { try call(.openScene).string(at: 0) }

    /// `CloseScene(session)`: closes that window; its saved state goes.
    package func closeScene(_ session: String) throws(BusError) { try call(.closeScene, [.string(session)]) }

    /// `SceneTap(session, element)`.
    package func tap(_ element: String, inScene session: String) throws(BusError) {
        try call(.sceneTap, [.string(session), .string(element)])
    }

    /// `SceneType(session, field, text)`.
    package func type(field: String, text: String, inScene session: String) throws(BusError) {
        try call(.sceneType, [.string(session), .string(field), .string(text)])
    }

    /// `SceneScreen(session)`: that window drawn as text.
    package func screen(ofScene session: String) throws(BusError) -> String {
        try call(.sceneScreen, [.string(session)]).string(at: 0)
    }

    /// `SceneElements(session)`: what that window accepts.
    package func elements(ofScene session: String) throws(BusError) -> [AppElement] {
        try AppElement.elements(from: call(.sceneElements, [.string(session)]))
    }

    @discardableResult
    private func call(_ method: App1Method, _ arguments: [BusValue] = []) throws(BusError) -> BusValues {
        try bus.call(
            destination: busName, path: BusInterface.app1ObjectPath, interface: BusInterface.app1.name,
            member: method.member, arguments: arguments, timeout: timeout)
    }
}
