package import PermissionStore
import RelaunchContract
import Synchronization
package import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// The sandbox's fault hooks (`RELAUNCH_TEST_HOOKS=1` only): `hang` blocks the bus thread for
/// good (the watchdog must fire); `die-before-kill` makes the next kill SIGKILL permissiond
/// itself after the change was committed and before the app is killed (the outbox must recover).
package final class TestHooks: Sendable {
    let dieBeforeKill = Atomic<Bool>(false)
    static let names = ["hang", "die-before-kill"]

    package init() {}

    /// Whether the next kill will SIGKILL permissiond first (`die-before-kill` was called).
    package var diesBeforeNextKill: Bool { dieBeforeKill.load(ordering: .acquiring) }

    /// Runs the hook a `TestHook(name)` call names. Its caller was checked before (TestHook's row
    /// of the table: root alone).
    package static func serve(_ call: BusMethodCall, hooks: TestHooks?) throws(BusError) {
        guard let hooks else {
            throw BusError(
                name: "org.freedesktop.DBus.Error.NotSupported",
                message: "test hooks are off; the unit must set RELAUNCH_TEST_HOOKS=1 (the sandbox's drop-in does)")
        }
        let name = try call.arguments.string(at: 0)
        switch name {
        case "hang":
            blockForever()
        case "die-before-kill":
            hooks.dieBeforeKill.store(true, ordering: .releasing)
        default:
            throw .invalidArgs("unknown test hook \(Echo.quoted(name)); accepted: \(names.joined(separator: ", "))")
        }
    }
}

/// A ``UnitController`` that obeys the `die-before-kill` hook, then defers to systemd.
package struct HookedUnitController: UnitController {
    let units: any UnitController
    let hooks: TestHooks

    package init(units: any UnitController, hooks: TestHooks) {
        self.units = units
        self.hooks = hooks
    }

    package func runningInstance(of unit: String) async throws -> String? {
        try await units.runningInstance(of: unit)
    }

    /// Asks as systemd's controller does, but never while `die-before-kill` is set: that hook's
    /// daemon dies after the commit, before any kill.
    package func requestKill(unit: String, instance: String) -> Bool {
        guard !hooks.dieBeforeKill.load(ordering: .acquiring) else { return false }
        return units.requestKill(unit: unit, instance: instance)
    }

    package func kill(unit: String, instance: String) async throws -> KillDelivery {
        if hooks.dieBeforeKill.exchange(false, ordering: .acquiringAndReleasing) {
            raise(SIGKILL)
        }
        return try await units.kill(unit: unit, instance: instance)
    }
}
