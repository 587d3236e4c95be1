import PermissionDaemon
import PermissionStore
import RelaunchBus
import Systemd
import Testing

/// The sandbox's fault hooks, served on a dbus-daemon of the test's own: who may call them, what
/// they accept, and that an unarmed hook changes nothing.
@Suite("permissiond's test hooks: root only, off unless turned on, named ones only")
struct TestHookTests {
    /// Calls TestHook(`name`) as this (root) test process on a server that serves it with `hooks`.
    static func callTestHook(_ name: String, hooks: TestHooks?) throws -> BusError? {
        let bus = try TestBus()
        defer { bus.stop() }
        let server = try BusConnection(address: bus.address)
        let object = try server.export(.permissions1, resolvingSenderUID: { $0 == "TestHook" }) {
            (call, _) throws(BusError) -> BusReply? in
            guard call.member == "TestHook" else { throw .invalidArgs("not in this test") }
            try TestHooks.serve(call, hooks: hooks)
            return BusReply()
        }
        defer { _ = object }
        try server.requestName("org.relaunch.Permissions1")
        try server.startLoopThread()
        defer { server.stop() }
        let client = try BusConnection(address: bus.address)
        do throws(BusError) {
            _ = try client.call(
                destination: "org.relaunch.Permissions1", path: "/org/relaunch/Permissions1",
                interface: "org.relaunch.Permissions1", member: "TestHook", arguments: [.string(name)])
            return nil
        } catch {
            return error
        }
    }

    @Test("root arms die-before-kill; nothing is armed before")
    func rootArms() throws {
        let hooks = TestHooks()
        #expect(!hooks.diesBeforeNextKill)
        #expect(try Self.callTestHook("die-before-kill", hooks: hooks) == nil)
        #expect(hooks.diesBeforeNextKill)
    }

    @Test("an unknown hook is refused naming the ones there are; with hooks off every hook is NotSupported")
    func refusals() throws {
        let unknown = try #require(try Self.callTestHook("explode", hooks: TestHooks()))
        #expect(unknown.name == BusError.invalidArgsName)
        #expect(unknown.message.contains("accepted: hang, die-before-kill"))
        let off = try #require(try Self.callTestHook("die-before-kill", hooks: nil))
        #expect(off.name == "org.freedesktop.DBus.Error.NotSupported")
        #expect(off.message.contains("RELAUNCH_TEST_HOOKS=1"))
    }

    @Test("an unarmed hook lets every kill through to systemd, and stays unarmed")
    func unarmedKills() async throws {
        let units = ScriptedUnits(failKills: 0)
        units.start(DaemonHarness.unit(0))
        let hooks = TestHooks()
        let hooked = HookedUnitController(units: units, hooks: hooks)
        let first = try #require(try await hooked.runningInstance(of: DaemonHarness.unit(0)))
        #expect(try await hooked.kill(unit: DaemonHarness.unit(0), instance: first) == .killed)
        units.start(DaemonHarness.unit(0))
        let second = try #require(try await hooked.runningInstance(of: DaemonHarness.unit(0)))
        #expect(try await hooked.kill(unit: DaemonHarness.unit(0), instance: second) == .killed)
        #expect(!hooks.diesBeforeNextKill)
        #expect(units.killed.count == 2)
    }
}
