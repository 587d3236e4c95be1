import Synchronization

/// How much untrusted work may run at once and how much may wait: for one key (a uid) and in all.
package struct WorkBudgetLimits: Sendable, Hashable, CustomStringConvertible {
    /// The most works of one key running at once.
    package var runningPerKey: Int
    /// The most works of one key waiting for a place; one more is refused at once.
    package var waitingPerKey: Int
    /// The most works running at once, all keys together.
    package var running: Int

    package init(runningPerKey: Int, waitingPerKey: Int, running: Int) {
        precondition(runningPerKey > 0 && running > 0 && waitingPerKey >= 0, "a budget needs room to run")
        self.runningPerKey = runningPerKey
        self.waitingPerKey = waitingPerKey
        self.running = running
    }

    /// `4 running per key, 32 waiting per key, 64 running in all`.
    package var description: String {
        "\(runningPerKey) running per key, \(waitingPerKey) waiting per key, \(running) running in all"
    }
}

/// The decisions of a ``WorkBudget``, without waiting or locks: which work runs, waits or is refused.
///
/// Fair between keys: when a place frees up, the keys with waiting work take turns (the key that
/// started one goes to the back), so a key that floods waits behind itself, never in front of a
/// key that asks for one place. Within a key, first come first served.
package struct WorkBudgetState<Key: Hashable & Sendable>: Sendable {
    /// What happens to work that arrives.
    package enum Arrival: Sendable, Hashable {
        /// It runs now (it holds a place until ``WorkBudgetState/finish(_:)``).
        case run
        /// It waits; ``WorkBudgetState/finish(_:)`` names the ticket when its turn comes.
        case wait(ticket: UInt64)
        /// Its key already has ``WorkBudgetLimits/waitingPerKey`` works waiting.
        case refuse
    }

    package let limits: WorkBudgetLimits
    /// Works running, per key (a key with none is absent).
    package private(set) var runningByKey: [Key: Int] = [:]
    /// Works running, all keys.
    package private(set) var runningCount = 0
    /// Tickets waiting, per key, oldest first (a key with none is absent).
    private var queues: [Key: [UInt64]] = [:]
    /// The keys with waiting work, in the order they get the next place they may take.
    private var turns: [Key] = []
    private var nextTicket: UInt64 = 0

    package init(limits: WorkBudgetLimits) {
        self.limits = limits
    }

    /// How many works of `key` wait.
    package func waiting(_ key: Key) -> Int { queues[key]?.count ?? 0 }

    /// Work of `key` arrives.
    package mutating func arrive(_ key: Key) -> Arrival {
        // Nobody of this key can be waiting while it has room and a place is free: a place that
        // frees up goes to the waiting at once (admitWaiting). So this never jumps a queue.
        if runningByKey[key, default: 0] < limits.runningPerKey && runningCount < limits.running {
            start(key)
            return .run
        }
        guard waiting(key) < limits.waitingPerKey else { return .refuse }
        let ticket = nextTicket
        nextTicket += 1
        if queues[key] == nil { turns.append(key) }
        queues[key, default: []].append(ticket)
        return .wait(ticket: ticket)
    }

    /// A work of `key` that was running ended: returns the waiting works that run now.
    package mutating func finish(_ key: Key) -> [(key: Key, ticket: UInt64)] {
        let left = runningByKey[key, default: 1] - 1
        runningByKey[key] = left > 0 ? left : nil
        runningCount -= 1
        return admitWaiting()
    }

    /// A waiting work gives up: true when it was still waiting (then it never runs).
    package mutating func withdraw(_ key: Key, ticket: UInt64) -> Bool {
        guard var queue = queues[key], let index = queue.firstIndex(of: ticket) else { return false }
        queue.remove(at: index)
        if queue.isEmpty {
            queues[key] = nil
            turns.removeAll { $0 == key }
        } else {
            queues[key] = queue
        }
        return true
    }

    private mutating func start(_ key: Key) {
        runningByKey[key, default: 0] += 1
        runningCount += 1
    }

    /// Gives free places to waiting works, one per key in turn.
    private mutating func admitWaiting() -> [(key: Key, ticket: UInt64)] {
        var started: [(key: Key, ticket: UInt64)] = []
        while runningCount < limits.running,
            let index = turns.firstIndex(where: { runningByKey[$0, default: 0] < limits.runningPerKey })
        {
            let key = turns.remove(at: index)
            var queue = queues[key] ?? []
            let ticket = queue.removeFirst()
            if queue.isEmpty {
                queues[key] = nil
            } else {
                queues[key] = queue
                turns.append(key)
            }
            start(key)
            started.append((key, ticket))
        }
        return started
    }
}

/// Admits untrusted work by budget, per key (a caller's uid) and overall, so a flood costs the
/// flooder: its own work waits behind its own work, and past ``WorkBudgetLimits/waitingPerKey``
/// its calls are refused at once with `org.freedesktop.DBus.Error.LimitsExceeded`.
///
/// A work waiting for its place holds no thread and no bus call. When its task is cancelled it
/// stops waiting and throws.
package final class WorkBudget<Key: Hashable & Sendable>: Sendable {
    private struct Guarded {
        var machine: WorkBudgetState<Key>
        /// Continuations of the works waiting, by ticket.
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        /// Tickets given a place (or withdrawn) before their continuation was stored: the answer.
        var decided: [UInt64: Bool] = [:]
    }

    /// What the budget is for, in errors: "authorization checks", "caller lookups".
    package let work: String
    private let guarded: Mutex<Guarded>

    package init(_ work: String, limits: WorkBudgetLimits) {
        self.work = work
        guarded = Mutex(Guarded(machine: WorkBudgetState(limits: limits)))
    }

    package var limits: WorkBudgetLimits { guarded.withLock { $0.machine.limits } }

    /// Works running now (all keys).
    package var running: Int { guarded.withLock { $0.machine.runningCount } }

    /// Runs `body` once `key` has a place; the place is given back when it returns or throws.
    ///
    /// - Throws: LimitsExceeded when `key` already has its most works waiting, or when the task
    ///   was cancelled while it waited; else what `body` throws.
    package func run<T: Sendable>(
        for key: Key, describedAs who: @autoclosure () -> String, _ body: () async throws(BusError) -> T
    ) async throws(BusError) -> T {
        try await admit(key, who: who())
        defer { finish(key) }
        return try await body()
    }

    private func admit(_ key: Key, who: String) async throws(BusError) {
        let arrival = guarded.withLock { $0.machine.arrive(key) }
        let ticket: UInt64
        switch arrival {
        case .run: return
        case .refuse:
            throw BusError(
                name: BusError.limitsExceededName,
                message: "\(who) already has \(guarded.withLock { $0.machine.limits.waitingPerKey }) \(work) waiting; "
                    + "wait for their answers before sending more")
        case .wait(let number): ticket = number
        }
        let admitted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let early = guarded.withLock { state -> Bool? in
                    if let answer = state.decided.removeValue(forKey: ticket) { return answer }
                    state.waiters[ticket] = continuation
                    return nil
                }
                if let early { continuation.resume(returning: early) }
            }
        } onCancel: {
            let waiter = guarded.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard state.machine.withdraw(key, ticket: ticket) else { return nil }  // already running
                guard let waiter = state.waiters.removeValue(forKey: ticket) else {
                    state.decided[ticket] = false
                    return nil
                }
                return waiter
            }
            waiter?.resume(returning: false)
        }
        guard admitted else {
            throw BusError(name: BusError.limitsExceededName, message: "gave up waiting for a place among the \(work)")
        }
    }

    private func finish(_ key: Key) {
        let resumed = guarded.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.machine.finish(key).compactMap { started in
                guard let waiter = state.waiters.removeValue(forKey: started.ticket) else {
                    state.decided[started.ticket] = true
                    return nil
                }
                return waiter
            }
        }
        for waiter in resumed { waiter.resume(returning: true) }
    }
}
