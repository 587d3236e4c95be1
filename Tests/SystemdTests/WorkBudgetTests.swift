import Synchronization
import Systemd
import Testing

/// The budget that admits strangers' work: per key, overall, fair between keys, refusing at once
/// past the waiting room.
@Suite("Work budgets: per uid and overall, a flood waits behind itself")
struct WorkBudgetTests {
    typealias State = WorkBudgetState<String>

    static let limits = WorkBudgetLimits(runningPerKey: 2, waitingPerKey: 3, running: 3)

    @Test("A key runs up to its share, then waits, then is refused")
    func perKeyShare() {
        var state = State(limits: Self.limits)
        let step1 = state.arrive("flood")
        #expect(step1 == .run)
        let step2 = state.arrive("flood")
        #expect(step2 == .run)
        let step3 = state.arrive("flood")
        #expect(step3 == .wait(ticket: 0), "a third of the same key waits although a place is free")
        let step4 = state.arrive("flood")
        #expect(step4 == .wait(ticket: 1))
        let step5 = state.arrive("flood")
        #expect(step5 == .wait(ticket: 2))
        let step6 = state.arrive("flood")
        #expect(step6 == .refuse, "past its waiting room a key is refused at once")
        #expect(state.runningCount == 2)
        let step7 = state.arrive("other")
        #expect(step7 == .run, "another key takes the free place at once")
        let step8 = state.arrive("third")
        #expect(step8 == .wait(ticket: 3), "the places in all are taken")
    }

    @Test("A freed place goes to the key that waited least recently served, not to the flood")
    func fairBetweenKeys() {
        var state = State(limits: WorkBudgetLimits(runningPerKey: 3, waitingPerKey: 10, running: 3))
        for _ in 0..<3 {
            let arrival = state.arrive("flood")
            #expect(arrival == .run)
        }
        for ticket in 0..<5 {
            let arrival = state.arrive("flood")
            #expect(arrival == .wait(ticket: UInt64(ticket)))
        }
        let step9 = state.arrive("admin")
        #expect(step9 == .wait(ticket: 5))
        // The flood's first waiter came earlier, so it takes the first place; then the admin's turn.
        let step10 = state.finish("flood")
        #expect(step10.map(\.ticket) == [0])
        let step11 = state.finish("flood")
        #expect(step11.map(\.ticket) == [5], "the admin's check runs next, before the flood's four others")
        #expect(state.runningByKey == ["flood": 2, "admin": 1])
        let step12 = state.finish("admin")
        #expect(step12.map(\.ticket) == [1])
    }

    @Test("A finished key's place goes to another key when the first has reached its share")
    func shareLimitsTheFreedPlace() {
        var state = State(limits: Self.limits)
        let step13 = state.arrive("a")
        #expect(step13 == .run)
        let step14 = state.arrive("a")
        #expect(step14 == .run)
        let step15 = state.arrive("b")
        #expect(step15 == .run)
        let step16 = state.arrive("a")
        #expect(step16 == .wait(ticket: 0))
        let step17 = state.arrive("b")
        #expect(step17 == .wait(ticket: 1))
        // b's place frees; a still runs two (its share), so b's waiter runs, not a's.
        let step18 = state.finish("b")
        #expect(step18.map(\.ticket) == [1])
        let step19 = state.finish("a")
        #expect(step19.map(\.ticket) == [0])
        #expect(state.runningCount == 3)
    }

    @Test("A waiter that gives up never runs and leaves no trace")
    func withdraw() {
        var state = State(limits: Self.limits)
        let step20 = state.arrive("a")
        #expect(step20 == .run)
        let step21 = state.arrive("a")
        #expect(step21 == .run)
        let step22 = state.arrive("a")
        #expect(step22 == .wait(ticket: 0))
        let step23 = state.withdraw("a", ticket: 0)
        #expect(step23)
        let step24 = state.withdraw("a", ticket: 0)
        #expect(!step24, "withdrawn once")
        #expect(state.waiting("a") == 0)
        let step25 = state.finish("a")
        #expect(step25.isEmpty, "nobody left to start")
        let step26 = state.arrive("a")
        #expect(step26 == .run)
    }

    @Test("Work beyond the budget waits without running, and runs as places free up")
    func asyncBudgetBoundsConcurrency() async throws {
        let budget = WorkBudget<Int>("checks", limits: WorkBudgetLimits(runningPerKey: 2, waitingPerKey: 64, running: 2))
        let gauge = Gauge()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await budget.run(for: 7, describedAs: "uid 7") { () throws(BusError) in
                        gauge.counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                        await Task.yield()
                        gauge.counts.withLock { $0.now -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(gauge.counts.withLock { $0.most } == 2)
        #expect(budget.running == 0)
    }

    @Test("Past the waiting room the call is refused with LimitsExceeded, naming who")
    func refusedWithLimitsExceeded() async throws {
        let budget = WorkBudget<Int>("checks", limits: WorkBudgetLimits(runningPerKey: 1, waitingPerKey: 0, running: 1))
        let holder = await Holder(budget)
        do throws(BusError) {
            try await budget.run(for: 1, describedAs: "uid 1") { () throws(BusError) in }
            Issue.record("a call past the waiting room ran")
        } catch {
            #expect(error.name == BusError.limitsExceededName)
            #expect(error.message.contains("uid 1"))
        }
        try await holder.release()
        try await budget.run(for: 1, describedAs: "uid 1") { () throws(BusError) in }
    }

    @Test("A waiting task that is cancelled stops waiting and throws")
    func cancelledWaiter() async throws {
        let budget = WorkBudget<Int>("checks", limits: WorkBudgetLimits(runningPerKey: 1, waitingPerKey: 4, running: 1))
        let holder = await Holder(budget)
        let ran = Gauge()
        let waiter = Task {
            try await budget.run(for: 1, describedAs: "uid 1") { () throws(BusError) in ran.counts.withLock { $0.now = 1 } }
        }
        waiter.cancel()
        await #expect(throws: BusError.self) { try await waiter.value }
        try await holder.release()
        #expect(ran.counts.withLock { $0.now } == 0, "the cancelled waiter never ran")
        #expect(budget.running == 0)
    }
}

/// Counts shared by the tasks of a test.
private final class Gauge: Sendable {
    let counts = Mutex((now: 0, most: 0))
}

/// Holds uid 1's one place in a budget until released.
private struct Holder {
    let task: Task<Void, any Error>
    let releaseInput: AsyncStream<Void>.Continuation

    /// Returns once the place is taken.
    init(_ budget: WorkBudget<Int>) async {
        let (entered, enter) = AsyncStream.makeStream(of: Void.self)
        let (release, releaseInput) = AsyncStream.makeStream(of: Void.self)
        self.releaseInput = releaseInput
        task = Task {
            try await budget.run(for: 1, describedAs: "uid 1") { () throws(BusError) in
                enter.yield()
                for await _ in release { break }
            }
        }
        for await _ in entered { break }
    }

    /// Gives the place back and waits until it is.
    func release() async throws {
        releaseInput.yield()
        try await task.value
    }
}
