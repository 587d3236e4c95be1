import RelaunchTestSupport
import Testing

/// The D-Bus policies of systemd/dbus/: who may own the names and who may call what.
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct DBusPolicyChecks {
    /// The bus policy lets anyone reach the methods; who may read what is the daemons' decision, so a
    /// refusal of a read comes from permissiond or the app (naming the polkit action), never the bus.
    @Test func anyoneMayCallReads() throws {
        let get = try Command.expect(1, Bus.send(Bus.permissions, "Get", "string:checkin-demo", "string:camera"), as: .nobody)
        #expect(get.output.contains("org.relaunch.permissions.read"), "Get by uid 65534 is refused by permissiond: \(get)")
        try Command.expect(0, Bus.call(Bus.permissions, "ListApps"), as: .nobody)
        try Command.expect(0, ["busctl", "introspect"] + Bus.permissions.prefix(2), as: .nobody)
        try waitUntil("org.relaunch.CheckInDemo1 on the bus") {
            let names = try Command.run(["busctl", "list", "--acquired", "--no-pager"]).stdout
            return (names.contains("org.relaunch.CheckInDemo1"), "not among the acquired names")
        }
        let screen = try Command.expect(1, Bus.send(Bus.checkIn, "Screen"), as: .nobody)
        #expect(screen.output.contains("org.relaunch.app.drive"), "Screen by uid 65534 is refused by the app: \(screen)")
        try Command.expect(0, Bus.call(Bus.checkIn, "Ready"), as: .nobody)
    }

    /// The bus policy lets anyone call Set, Reset and Tap (systemd/dbus/*.conf): the services refuse
    /// callers polkit does not authorize, after polkit answered (not dbus-daemon, not for want of
    /// polkit); TestHook is the one member the bus policy itself keeps from non-root.
    @Test func onlyRootMayChange() throws {
        let set = try Command.expect(1, Bus.send(Bus.permissions, "Set", "string:checkin-demo", "string:camera", "string:allowed"), as: .nobody)
        try Refusal.byService(set, "Set by uid 65534")
        #expect(set.output.contains("uid 65534"), "permissiond's refusal of Set names the caller: \(set)")
        try Refusal.byService(
            try Command.expect(1, Bus.send(Bus.permissions, "Reset", "string:checkin-demo", "string:camera"), as: .nobody),
            "Reset by uid 65534")
        try Refusal.byService(try Command.expect(1, Bus.send(Bus.checkIn, "Tap", "string:check-in"), as: .nobody), "Tap by uid 65534")
        try Refusal.byBusPolicy(
            try Command.expect(1, Bus.send(Bus.permissions, "TestHook", "string:hang"), as: .nobody), "permissiond's TestHook by uid 65534")
        try Refusal.byBusPolicy(
            try Command.expect(1, Bus.send(Bus.checkIn, "TestHook", "string:hang"), as: .nobody), "the app's TestHook by uid 65534")
        // The refusals above said polkit answered; it is up still.
        let down = try polkitIsDown()
        #expect(down == nil, "polkit is not up after the refusals: \(down ?? "")")
    }

    @Test func onlyOwnersMayOwn() throws {
        let request = ["busctl", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName", "su"]
        try Command.expect(1, request + ["org.relaunch.Permissions1", "4"], as: .nobody)
        try Command.expect(1, request + ["org.relaunch.CheckInDemo1", "4"], as: .nobody)
        try Command.expect(1, request + ["org.relaunch.Permissions1", "4"], as: RunAs("relaunch-checkin"))
    }
}
