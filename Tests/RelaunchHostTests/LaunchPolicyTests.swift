import RelaunchApp
import RelaunchBus
import RelaunchContract
import RelaunchHost
import Testing

@Suite("The host's launch policy")
struct LaunchPolicyTests {
    static let kill = LastKill(invocationID: "aaaa", permission: "camera", old: "denied", new: "allowed", realtimeMicroseconds: 7)

    @Test("a kill of the last instance is its last exit, for any invocation it left behind")
    func killedLastInstance() {
        #expect(LaunchPolicy.lastExit(lastKill: Self.kill, previousInvocations: ["aaaa"])
            == .killed(LastExit(permission: .camera, old: .denied, new: .allowed)))
        #expect(LaunchPolicy.lastExit(lastKill: Self.kill, previousInvocations: ["bbbb", "aaaa"]) != .notKilled)
    }

    @Test("a kill of an older instance, no kill, or an empty record is no last exit")
    func notKilled() {
        #expect(LaunchPolicy.lastExit(lastKill: Self.kill, previousInvocations: ["bbbb"]) == .notKilled)
        #expect(LaunchPolicy.lastExit(lastKill: nil, previousInvocations: ["aaaa"]) == .notKilled)
        var empty = Self.kill
        empty.invocationID = ""
        #expect(LaunchPolicy.lastExit(lastKill: empty, previousInvocations: [""]) == .notKilled)
    }

    @Test("a kill naming what this build does not know is unreadable, not a guess")
    func unreadable() {
        var odd = Self.kill
        odd.permission = "torch"
        #expect(LaunchPolicy.lastExit(lastKill: odd, previousInvocations: ["aaaa"]) == .unreadable)
        odd = Self.kill
        odd.new = "maybe"
        #expect(LaunchPolicy.lastExit(lastKill: odd, previousInvocations: ["aaaa"]) == .unreadable)
    }

    @Test("only the mark of the very instance permissiond killed is forgiven")
    func forgiveness() {
        #expect(LaunchPolicy.forgivesRestoringMark(markInvocation: "aaaa", lastKill: Self.kill))
        #expect(!LaunchPolicy.forgivesRestoringMark(markInvocation: "bbbb", lastKill: Self.kill))
        #expect(!LaunchPolicy.forgivesRestoringMark(markInvocation: nil, lastKill: Self.kill))
        #expect(!LaunchPolicy.forgivesRestoringMark(markInvocation: "aaaa", lastKill: nil))
        #expect(!LaunchPolicy.forgivesRestoringMark(markInvocation: "", lastKill: Self.kill))
    }
}
