import RelaunchContract
import Testing

/// The one rule relaunchctl's wait-ready and RelaunchDriver's launch waits decide readiness by.
@Suite("When an app counts as ready")
struct ReadinessTests {
    @Test("the unit's running instance is the active unit's invocation, and only then")
    func runningInstance() {
        #expect(Readiness.runningInstance(activeState: "active", invocationID: "abc") == "abc")
        #expect(Readiness.runningInstance(activeState: "activating", invocationID: "abc") == nil)
        #expect(Readiness.runningInstance(activeState: "deactivating", invocationID: "abc") == nil)
        #expect(Readiness.runningInstance(activeState: "active", invocationID: "") == nil)
    }

    @Test("ready only when the answer comes from the unit's current instance and its launch finished", arguments: [
        (true, "abc", "abc", Probe<String>.done("abc")),
        (false, "abc", "abc", .notYet("still launching")),
        (true, "old", "abc", .notYet("the answering instance is not the unit's current one")),
        (false, "old", "abc", .notYet("still launching")),
    ])
    func judge(finished: Bool, answeredBy: String, current: String, expected: Probe<String>) {
        #expect(Readiness.judge(finished: finished, answeredBy: answeredBy, current: current) == expected)
    }
}
