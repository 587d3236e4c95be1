import Systemd

// Interfaces for testing the bus machinery. The Systemd target knows no program's interfaces, so
// the tests describe their own; these mirror the shapes Relaunch's (RelaunchBus) have.
extension BusInterface {
    /// A store: reads, writes, a struct reply and a signal.
    static let permissions1 = BusInterface(
        name: "org.relaunch.Permissions1",
        methods: [
            Method("Get", [Argument("app", "s"), Argument("permission", "s")], returns: [Argument("state", "s")]),
            Method("List", [Argument("app", "s")], returns: [Argument("states", "a{ss}")]),
            Method("ListApps", returns: [Argument("apps", "as")]),
            Method("Set", [Argument("app", "s"), Argument("permission", "s"), Argument("state", "s")]),
            Method("Reset", [Argument("app", "s"), Argument("permission", "s")]),
            Method("LastKill", [Argument("app", "s")], returns: [Argument("kill", "(sssst)")]),
        ],
        signals: [
            Signal("Changed", [
                Argument("app", "s"), Argument("permission", "s"), Argument("old_state", "s"),
                Argument("new_state", "s"), Argument("killed", "b"),
            ])
        ])

    /// A driver: input methods and text answers.
    static let checkInDemo1 = BusInterface(
        name: "org.relaunch.CheckInDemo1",
        methods: [
            Method("Tap", [Argument("element", "s")]),
            Method("Type", [Argument("field", "s"), Argument("text", "s")]),
            Method("Background"),
            Method("Foreground"),
            Method("Quit", [Argument("force", "b")]),
            Method("Screen", returns: [Argument("screen", "s")]),
            Method("State", returns: [Argument("json", "s")]),
            Method("Ready", returns: [Argument("ready", "(bs)")]),
            Method("TestHook", [Argument("name", "s")]),
        ])
}
