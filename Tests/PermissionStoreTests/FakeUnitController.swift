import Synchronization
@testable import PermissionStore

/// A systemd stand-in: units listed in `active` run, each as one instance with an invocation id;
/// kills are counted and stop the unit.
final class FakeUnitController: UnitController {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct State {
        /// Running units and the invocation id of the instance running.
        var running: [String: String] = [:]
        var kills: [String] = []
        var killedInstances: [String] = []
        var isActiveFails = false
        /// How many kill attempts fail before one succeeds (Int.max: every one).
        var killFailures = 0
        /// The unit is running when asked, but its process is gone by the time of the kill.
        var exitsBeforeKill = false
        var instancesStarted = 0
        /// Whether kills have a route that needs no answer (``requestKill(unit:instance:)`` asks).
        var asksEarly = false
        /// The kills asked for ahead of the commit, in order.
        var asked: [String] = []
    }
    /// Runs when a kill is asked for ahead of the commit (to look at the store and the reads then).
    let onAsk: @Sendable (String) -> Void
    /// Runs when the running instance is read.
    let onRead: @Sendable (String) -> Void

    let state: Mutex<State>

    init(
        active: Set<String> = [], isActiveFails: Bool = false, killFails: Bool = false, exitsBeforeKill: Bool = false,
        asksEarly: Bool = false, onAsk: @escaping @Sendable (String) -> Void = { _ in },
        onRead: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        state = Mutex(
            State(
                isActiveFails: isActiveFails, killFailures: killFails ? Int.max : 0, exitsBeforeKill: exitsBeforeKill,
                asksEarly: asksEarly))
        self.onAsk = onAsk
        self.onRead = onRead
        for unit in active.sorted() { start(unit) }
    }

    /// The units killed so far, in order.
    var kills: [String] { state.withLock { $0.kills } }
    /// The instances killed so far, in order.
    var killedInstances: [String] { state.withLock { $0.killedInstances } }

    /// Starts a new instance of `unit` (as systemd's restart would) and returns its invocation id.
    @discardableResult
    func start(_ unit: String) -> String {
        state.withLock { state in
            state.instancesStarted += 1
            let id = Self.invocationID(state.instancesStarted)
            state.running[unit] = id
            return id
        }
    }

    /// The instance of `unit` running now.
    func instance(of unit: String) -> String? { state.withLock { $0.running[unit] } }

    func runningInstance(of unit: String) async throws -> String? {
        onRead(unit)
        return try state.withLock { state in
            if state.isActiveFails { throw Failure(description: "systemd did not answer") }
            return state.running[unit]
        }
    }

    func kill(unit: String, instance: String) async throws -> KillDelivery {
        try state.withLock { state in
            if state.killFailures > 0 {
                if state.killFailures != Int.max { state.killFailures -= 1 }
                throw Failure(description: "Access denied")
            }
            if state.exitsBeforeKill { return .gone }
            guard state.running[unit] == instance else { return .gone }
            state.kills.append(unit)
            state.killedInstances.append(instance)
            state.running[unit] = nil
            return .killed
        }
    }

    /// Asks when ``State/asksEarly``: the kill is then carried out by the next ``kill(unit:instance:)``.
    func requestKill(unit: String, instance: String) -> Bool {
        let asks = state.withLock { state in
            guard state.asksEarly, state.running[unit] == instance else { return false }
            state.asked.append(unit)
            return true
        }
        if asks { onAsk(unit) }
        return asks
    }

    /// The kills asked for ahead of the commit so far, in order.
    var asked: [String] { state.withLock { $0.asked } }

    /// The invocation id of the `n`th instance started (from 1).
    static func invocationID(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: 32 - digits.count) + digits
    }
}
