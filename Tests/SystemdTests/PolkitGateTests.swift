import Synchronization
import Systemd
import Testing

/// polkit as a stand-in that answers one verdict and counts the questions.
private final class CountingPolkit: PolkitChecking {
    let verdict: Mutex<PolkitVerdict>
    let asked = Mutex(0)

    init(_ verdict: PolkitVerdict) {
        self.verdict = Mutex(verdict)
    }

    func check(action: String, busName: String, interactive: Bool) async throws(BusError) -> PolkitVerdict {
        asked.withLock { $0 += 1 }
        return verdict.withLock { $0 }
    }
}

/// polkit as a stand-in that holds every question until ``answer(_:)``, and answers at once after.
private final class HeldPolkit: PolkitChecking {
    private struct State {
        var asked = 0
        var held: [CheckedContinuation<PolkitVerdict, Never>] = []
        var verdict: PolkitVerdict?
    }
    private let state = Mutex(State())
    var asked: Int { state.withLock { $0.asked } }

    func check(action: String, busName: String, interactive: Bool) async throws(BusError) -> PolkitVerdict {
        await withCheckedContinuation { question in
            let verdict = state.withLock { state -> PolkitVerdict? in
                state.asked += 1
                if state.verdict == nil { state.held.append(question) }
                return state.verdict
            }
            if let verdict { question.resume(returning: verdict) }
        }
    }

    func answer(_ verdict: PolkitVerdict) {
        let held = state.withLock { state in
            defer { state.held = [] }
            state.verdict = verdict
            return state.held
        }
        for question in held { question.resume(returning: verdict) }
    }
}

/// The waits a gate asked for, instead of sleeping.
private final class Waits: Sendable {
    let taken = Mutex<[Duration]>([])
    func sleep(_ duration: Duration) { taken.withLock { $0.append(duration) } }
}

@Suite("The polkit gate: a refusal remembered per connection and paced, prompts always asked")
struct PolkitGateTests {
    static let limits = WorkBudgetLimits(runningPerKey: 4, waitingPerKey: 64, running: 8)

    @Test("A refused connection is answered from memory: polkit is asked once, however often it calls")
    func refusalRemembered() async throws {
        for verdict in [PolkitVerdict.denied, .challenge] {
            let polkit = CountingPolkit(verdict)
            let waits = Waits()
            let gate = PolkitGate(polkit: polkit, limits: Self.limits, sleep: { waits.sleep($0) })
            for _ in 0..<50 {
                #expect(try await gate.check(action: "a.read", busName: ":1.9", uid: 65534, interactive: false) == verdict)
            }
            #expect(polkit.asked.withLock { $0 } == 1, "polkit asked once for \(verdict)")
            // Another action, or another connection of the same user, is asked about on its own.
            _ = try await gate.check(action: "a.set", busName: ":1.9", uid: 65534, interactive: false)
            _ = try await gate.check(action: "a.read", busName: ":1.10", uid: 65534, interactive: false)
            #expect(polkit.asked.withLock { $0 } == 3)
        }
    }

    @Test("Remembered refusals of one uid come one interval apart; another uid has its own pace")
    func refusalsPaced() async throws {
        let waits = Waits()
        let gate = PolkitGate(polkit: CountingPolkit(.denied), limits: Self.limits, refusalInterval: .seconds(1), sleep: { waits.sleep($0) })
        _ = try await gate.check(action: "a", busName: ":1.1", uid: 7, interactive: false)  // asks polkit: no wait
        for _ in 0..<4 { _ = try await gate.check(action: "a", busName: ":1.1", uid: 7, interactive: false) }
        _ = try await gate.check(action: "a", busName: ":1.2", uid: 8, interactive: false)
        _ = try await gate.check(action: "a", busName: ":1.2", uid: 8, interactive: false)
        let taken = waits.taken.withLock { $0 }
        #expect(taken.count == 5)
        // The uid's refusals queue up a second apart (less the little time the test itself took).
        for (index, wait) in taken.prefix(4).enumerated() {
            #expect(wait > .seconds(index) - .milliseconds(500) && wait <= .seconds(index), "wait \(index): \(wait)")
        }
        #expect(taken[4] <= .milliseconds(1), "uid 8's first remembered refusal does not wait behind uid 7's")
    }

    @Test("An interactive call always asks polkit, and a yes forgets the connection's refusals")
    func promptsAlwaysAsked() async throws {
        let polkit = CountingPolkit(.challenge)
        let gate = PolkitGate(polkit: polkit, limits: Self.limits, sleep: { _ in })
        _ = try await gate.check(action: "a", busName: ":1.5", uid: 1000, interactive: false)
        _ = try await gate.check(action: "a", busName: ":1.5", uid: 1000, interactive: true)
        #expect(polkit.asked.withLock { $0 } == 2, "a prompt is never answered from memory")
        polkit.verdict.withLock { $0 = .authorized }  // the user authenticated
        #expect(try await gate.check(action: "a", busName: ":1.5", uid: 1000, interactive: true) == .authorized)
        #expect(try await gate.check(action: "a", busName: ":1.5", uid: 1000, interactive: false) == .authorized)
        #expect(polkit.asked.withLock { $0 } == 4, "after a yes the connection is asked about again")
    }

    @Test("forgetAll asks polkit again (a new bus daemon reuses names)")
    func forgetAll() async throws {
        let polkit = CountingPolkit(.denied)
        let gate = PolkitGate(polkit: polkit, limits: Self.limits, sleep: { _ in })
        _ = try await gate.check(action: "a", busName: ":1.5", uid: 1000, interactive: false)
        gate.forgetAll()
        _ = try await gate.check(action: "a", busName: ":1.5", uid: 1000, interactive: false)
        #expect(polkit.asked.withLock { $0 } == 2)
    }

    @Test("Calls of one connection that arrive while polkit is asked the same wait for that answer", arguments: [PolkitVerdict.denied, .authorized])
    func oneQuestionPerConnection(verdict: PolkitVerdict) async throws {
        let polkit = HeldPolkit()
        let waits = Waits()
        let gate = PolkitGate(polkit: polkit, limits: Self.limits, sleep: { waits.sleep($0) })
        try await withThrowingTaskGroup(of: PolkitVerdict.self) { group in
            for _ in 0..<16 {
                group.addTask { try await gate.check(action: "a.read", busName: ":1.40", uid: 65534, interactive: false) }
            }
            // Another connection of the same user asks its own question.
            group.addTask { try await gate.check(action: "a.read", busName: ":1.41", uid: 65534, interactive: false) }
            var joined = false
            for _ in 0..<10_000 {
                if gate.callsWaiting(busName: ":1.40", action: "a.read") == 15 && polkit.asked == 2 { joined = true; break }
                await Task.yield()
            }
            #expect(joined, "15 calls wait behind the first, and polkit has two questions")
            polkit.answer(verdict)
            var answers: [PolkitVerdict] = []
            for try await answer in group { answers.append(answer) }
            #expect(answers == Array(repeating: verdict, count: 17))
        }
        #expect(polkit.asked == 2, "one question per connection, not one per call")
        #expect(gate.callsWaiting(busName: ":1.40", action: "a.read") == 0)
        // The calls that waited for a refusal take their turn in the uid's pace; a yes waits for nothing.
        #expect(waits.taken.withLock { $0.count } == (verdict == .denied ? 15 : 0))
    }
}
