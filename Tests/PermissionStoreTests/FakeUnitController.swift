import Synchronization
@testable import PermissionStore

/// A systemd stand-in: units listed in `active` run; kills are counted and stop the unit.
final class FakeUnitController: UnitController {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct State {
        var active: Set<String> = []
        var kills: [String] = []
        var isActiveFails = false
        var killFails = false
        /// The unit is "active" but its process is gone by the time of the kill.
        var exitsBeforeKill = false
    }

    let state: Mutex<State>

    init(active: Set<String> = [], isActiveFails: Bool = false, killFails: Bool = false, exitsBeforeKill: Bool = false) {
        state = Mutex(State(active: active, isActiveFails: isActiveFails, killFails: killFails,
                            exitsBeforeKill: exitsBeforeKill))
    }

    /// The units killed so far, in order.
    var kills: [String] { state.withLock { $0.kills } }

    func isActive(unit: String) async throws -> Bool {
        try state.withLock { state in
            if state.isActiveFails { throw Failure(description: "systemd did not answer") }
            return state.active.contains(unit)
        }
    }

    func kill(unit: String) async throws -> String? {
        try state.withLock { state in
            if state.killFails { throw Failure(description: "Access denied") }
            if state.exitsBeforeKill { return nil }
            state.kills.append(unit)
            state.active.remove(unit)
            return Self.invocationID(state.kills.count)
        }
    }

    /// The invocation id the `n`th kill (from 1) reports.
    static func invocationID(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: 32 - digits.count) + digits
    }
}
