import RelaunchTestSupport
import Testing

/// Who may drive checkin-demo and what input it takes. (The one check of
/// tests/sandbox/checks/checkin-demo.sh that Tests/AppBehaviourTests/CheckInBehaviourTests does not
/// assert: that suite drives the app as root with good input only. The file keeps the demo_* helpers
/// the unported bash checks still call.)
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct CheckInDemoChecks {
    /// Driving the app and reading its state are root's; Ready() is anyone's. Bad input is refused
    /// with InvalidArgs saying what is accepted.
    @Test func inputIsRootOnlyAndChecked() throws {
        try Demo.waitReady()
        try Assert.contains(try Command.expect(1, Bus.call(Bus.checkIn, "Tap", "s", "check-in"), as: .nobody).output,
                            "Access denied", "Tap by uid 65534")
        try Assert.contains(try Command.expect(1, Bus.call(Bus.checkIn, "TestHook", "s", "hang"), as: .nobody).output,
                            "Access denied", "TestHook by uid 65534")
        try Assert.contains(try Command.expect(1, Bus.call(Bus.checkIn, "State"), as: .nobody).output,
                            "Access denied", "State by uid 65534")
        try Command.expect(0, Bus.call(Bus.checkIn, "Ready"), as: .nobody)
        // Bad input: InvalidArgs saying what is accepted.
        try Assert.contains(try Command.expect(1, Bus.call(Bus.checkIn, "Tap", "s", "teleport")).output,
                            "accepted: tab:venues, tab:check-in", "Tap teleport")
        try Assert.contains(try Command.expect(1, Bus.call(Bus.checkIn, "Type", "ss", "colour", "red")).output,
                            "accepted: venue, party-size, note", "Type colour")
        try Assert.contains(try Command.expect(1, Bus.call(Bus.checkIn, "TestHook", "s", "explode")).output,
                            "accepted: hang, crash-next-restore", "TestHook explode")
        try Demo.waitReady()
    }
}
