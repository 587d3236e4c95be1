import RelaunchContract
import RelaunchctlCore
import ScenarioKit
import Testing

/// The runner's bounded waits, on a clock only their pauses move: what each wait decides after
/// each look, and that it gives up once its timeout has passed, saying what it saw last.
@Suite("Bounded waits")
struct PollTests {
    @Test("a wait looks again, a pause apart, until the look is done")
    func looksUntilDone() throws {
        let clock = FakeClock()
        let looks = Script<Probe<String>>(.notYet("starting"), .notYet("starting"), .done("ready"))
        let value = try clock.poll(timeout: .seconds(1)).wait(every: 20, { () throws(CLIError) in looks.next() }) { _ in
            CLIError(.failed, "gave up")
        }
        #expect(value == "ready")
        #expect(looks.count == 3)
        #expect(clock.pauses == [20, 20])
    }

    @Test("a wait that is never done looks until its timeout has passed, then says what it saw last")
    func givesUp() {
        let clock = FakeClock()
        let looks = Script<Probe<Int>>(.notYet("first"), .notYet("still starting"))
        let error = #expect(throws: CLIError.self) {
            try clock.poll(timeout: .milliseconds(100)).wait(every: 20, { () throws(CLIError) in looks.next() }) { seen in
                CLIError(.failed, "gave up after \(seen)")
            }
        }
        #expect(error?.message == "gave up after still starting")
        // Looks at 0, 20, 40, 60, 80 ms (before the deadline) and once at 100 ms, when it has passed.
        #expect(looks.count == 6)
        #expect(clock.elapsed == .milliseconds(100))
    }

    @Test("a wait with no time at all still looks once")
    func looksOnce() throws {
        let clock = FakeClock()
        let looks = Script<Probe<Int>>(.done(7))
        #expect(try clock.poll(timeout: .zero).wait(every: 20, { () throws(CLIError) in looks.next() }) { _ in .failed("x") } == 7)
        let never = Script<Probe<Int>>(.notYet("no"))
        #expect(throws: CLIError.self) {
            try clock.poll(timeout: .zero).wait(every: 20, { () throws(CLIError) in never.next() }) { _ in .failed("x") }
        }
        #expect(never.count == 1)
    }

    @Test("expect unit waits for systemd to reach the value, and names what it read last")
    func expectUnit() throws {
        let states = Script("deactivating", "deactivating", "inactive")
        try FakeClock().poll(timeout: .seconds(1)).expectUnit("ActiveState", "inactive") { () throws(CLIError) in states.next() }
        #expect(states.count == 3)

        let stuck = Script("deactivating")
        let error = #expect(throws: CLIError.self) {
            try FakeClock().poll(timeout: .milliseconds(100)).expectUnit("ActiveState", "inactive") { () throws(CLIError) in stuck.next() }
        }
        #expect(error?.message == "unit ActiveState: expected 'inactive', got 'deactivating' after \(Duration.milliseconds(100))")
    }

    @Test("a relaunch is a new invocation of the unit; the old one running on is a failure")
    func newInstance() throws {
        let invocations = Script("old", "old", "", "new")
        try FakeClock().poll(timeout: .seconds(1)).waitForNewInstance(of: "checkin-demo.service", after: "old") {
            () throws(CLIError) in invocations.next()
        }
        // The unit without an instance for a moment ("") is already not the old one.
        #expect(invocations.count == 3)

        let error = #expect(throws: CLIError.self) {
            try FakeClock().poll(timeout: .milliseconds(100)).waitForNewInstance(of: "checkin-demo.service", after: "old") {
                () throws(CLIError) in "old"
            }
        }
        #expect(error?.message == "systemd did not relaunch checkin-demo.service")
    }

    @Test("expect state waits for the app to take a change; a state that is not JSON or lacks the path fails at once")
    func expectState() throws {
        let states = Script(#"{"modal": {"step": "asking"}}"#, #"{"modal": {"step": "denied"}}"#)
        try FakeClock().poll(timeout: .seconds(1)).expectState("modal.step", "denied") { () throws(CLIError) in states.next() }
        #expect(states.count == 2)

        let error = #expect(throws: CLIError.self) {
            try FakeClock().poll(timeout: .milliseconds(100)).expectState("modal.partySize", "2") { () throws(CLIError) in
                #"{"modal": {"partySize": 3}}"#
            }
        }
        #expect(error?.message == "state modal.partySize: expected '2', got '3' after \(Duration.milliseconds(100))")

        let notJSON = Script("<html>")
        let bad = #expect(throws: CLIError.self) {
            try FakeClock().poll(timeout: .seconds(1)).expectState("a", "1") { () throws(CLIError) in notJSON.next() }
        }
        #expect(bad?.message == "the app's state is not JSON: <html>" && notJSON.count == 1)
        let missing = #expect(throws: CLIError.self) {
            try FakeClock().poll(timeout: .seconds(1)).expectState("modal.note", "x") { () throws(CLIError) in #"{"modal": {}}"# }
        }
        #expect(missing?.message == "state has no modal.note")
    }

    @Test("expect journal waits for a matching entry; none within the timeout fails naming the matches")
    func journalEntry() throws {
        let counts = Script(0, 0, 1)
        try FakeClock().poll(timeout: .seconds(1)).expectJournalEntry("MESSAGE_ID=x") { () throws(CLIError) in counts.next() }
        #expect(counts.count == 3)

        let error = #expect(throws: CLIError.self) {
            try FakeClock().poll(timeout: .milliseconds(100)).expectJournalEntry("MESSAGE_ID=x UNIT=a.service") { () throws(CLIError) in 0 }
        }
        #expect(error?.message
            == "no journal entry with MESSAGE_ID=x UNIT=a.service after the steps this expectation follows (waited \(Duration.milliseconds(100)))")
    }

    @Test("expect no-journal passes once the marker is read with no match before it, and fails on a match at once")
    func noJournalEntry() throws {
        let marker = (field: "RELAUNCH_SCENARIO_MARKER", value: "1-2")
        let seen = Script<(count: Int, stopSeen: Bool)>((0, false), (0, false), (0, true))
        try FakeClock().poll(timeout: .seconds(1)).expectNoJournalEntry("MESSAGE_ID=x", marker: marker) { () throws(CLIError) in seen.next() }
        #expect(seen.count == 3)

        let match = Script<(count: Int, stopSeen: Bool)>((1, false), (0, true))
        let error = #expect(throws: CLIError.self) {
            try FakeClock().poll(timeout: .seconds(1)).expectNoJournalEntry("MESSAGE_ID=x", marker: marker) { () throws(CLIError) in match.next() }
        }
        #expect(error?.message == "unexpected journal entry with MESSAGE_ID=x" && match.count == 1)
        let matchAndMarker = #expect(throws: CLIError.self) {
            try FakeClock().poll(timeout: .seconds(1)).expectNoJournalEntry("MESSAGE_ID=x", marker: marker) { () throws(CLIError) in (2, true) }
        }
        #expect(matchAndMarker?.message == "unexpected journal entry with MESSAGE_ID=x")

        let lost = #expect(throws: CLIError.self) {
            try FakeClock().poll(timeout: .milliseconds(100)).expectNoJournalEntry("MESSAGE_ID=x", marker: marker) { () throws(CLIError) in (0, false) }
        }
        #expect(lost?.message == "the runner's journal marker RELAUNCH_SCENARIO_MARKER=1-2 did not show up within "
            + "\(Duration.milliseconds(100)), so the absence of MESSAGE_ID=x is not proven")
    }
}

/// A clock that stands still but for the pauses a wait takes, which it records.
final class FakeClock {
    private let start = ContinuousClock.now
    private(set) var elapsed: Duration = .zero
    private(set) var pauses: [Int] = []

    /// A wait of at most `timeout` on this clock.
    func poll(timeout: Duration) -> Poll {
        Poll(timeout: timeout, now: { self.start + self.elapsed }, pause: { milliseconds in
            self.pauses.append(milliseconds)
            self.elapsed += .milliseconds(milliseconds)
        })
    }
}

/// The answers of successive looks, the last one repeated; counts the looks.
final class Script<Answer> {
    private let answers: [Answer]
    private(set) var count = 0

    init(_ answers: Answer...) { self.answers = answers }

    func next() -> Answer {
        defer { count += 1 }
        return answers[min(count, answers.count - 1)]
    }
}
