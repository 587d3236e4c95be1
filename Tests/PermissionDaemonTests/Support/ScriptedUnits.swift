import PermissionStore
import Synchronization

/// A systemd stand-in for the writer's and the outbox's tests: each started unit runs one instance;
/// a kill may be made to fail (`failKills`), or to wait for ``openGate()``; kills that reach an
/// instance are recorded, and so is the most kills that were ever running at once.
final class ScriptedUnits: UnitController {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private struct State {
        var running: [String: String] = [:]
        var started = 0
        var killed: [String] = []
        var attempts = 0
        var failKills = 0
        var inKill = 0
        var mostAtOnce = 0
        var gated = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let entered: AsyncStream<Void>
    private let entry: AsyncStream<Void>.Continuation
    private let kills: AsyncStream<Void>
    private let killDone: AsyncStream<Void>.Continuation

    /// - Parameters:
    ///   - failKills: how many kill attempts fail before one goes through.
    ///   - gated: kills wait for ``openGate()``.
    init(failKills: Int = 0, gated: Bool = false) {
        state.withLock {
            $0.failKills = failKills
            $0.gated = gated
        }
        (entered, entry) = AsyncStream.makeStream(of: Void.self)
        (kills, killDone) = AsyncStream.makeStream(of: Void.self)
    }

    /// The instances killed, in order ("unit/invocation").
    var killed: [String] { state.withLock { $0.killed } }
    /// How many kills were attempted.
    var attempts: Int { state.withLock { $0.attempts } }
    /// The most kills that ever ran at the same time.
    var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }

    /// Starts an instance of `unit`.
    func start(_ unit: String) {
        state.withLock { state in
            state.started += 1
            state.running[unit] = String(repeating: "0", count: 31) + String(state.started % 10)
        }
    }

    /// Lets every kill waiting, and every later one, go on.
    func openGate() {
        let waiting = state.withLock { state in
            state.gated = false
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once a kill has started (the first one; call once).
    func killStarted() async {
        for await _ in entered { return }
    }

    /// Returns once a kill has reached its instance (the first one; call once).
    func killedOne() async {
        for await _ in kills { return }
    }

    func runningInstance(of unit: String) async throws -> String? {
        state.withLock { $0.running[unit] }
    }

    func kill(unit: String, instance: String) async throws -> KillDelivery {
        state.withLock { state in
            state.attempts += 1
            state.inKill += 1
            state.mostAtOnce = max(state.mostAtOnce, state.inKill)
        }
        entry.yield()
        defer { state.withLock { $0.inKill -= 1 } }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let wait = state.withLock { state in
                if state.gated { state.waiting.append(continuation) }
                return state.gated
            }
            if !wait { continuation.resume() }
        }
        // Other writes get every chance to run meanwhile, if anything lets them.
        for _ in 0..<10 { await Task.yield() }
        let delivery = try state.withLock { state -> KillDelivery in
            if state.failKills > 0 {
                state.failKills -= 1
                throw Failure(description: "systemd refused the kill")
            }
            guard state.running[unit] == instance else { return .gone }
            state.running[unit] = nil
            state.killed.append(unit + "/" + instance)
            return .killed
        }
        if delivery == .killed { killDone.yield() }
        return delivery
    }
}
