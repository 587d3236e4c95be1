package import RelaunchContract

/// A bounded wait for something that happens on its own time (systemd relaunching a unit, the app
/// taking a change, journald making an entry readable): look, and look again every so often until
/// the look is satisfied or the timeout has passed since the wait began.
///
/// The clock and the pause between two looks are parameters: the runner's are the monotonic clock
/// and a real pause; unit tests hand in a clock that a pause moves, so no test waits.
package struct Poll {
    /// How long a wait may take.
    package let timeout: Duration
    /// Now, on a monotonic clock.
    let now: () -> ContinuousClock.Instant
    /// Waits this many milliseconds between two looks.
    let pause: (Int) -> Void

    /// A wait of at most `timeout`, on `now`'s clock, pausing with `pause` between looks.
    package init(
        timeout: Duration, now: @escaping () -> ContinuousClock.Instant = { .now },
        pause: @escaping (Int) -> Void = { RelaunchctlCore.pause(milliseconds: $0) }
    ) {
        self.timeout = timeout
        self.now = now
        self.pause = pause
    }

    /// Looks until `look` is done, every `interval` milliseconds: at least once, and once more after
    /// the timeout has passed; then throws what `expired` makes of what the last look saw. A look
    /// that throws ends the wait with its error.
    package func wait<Value>(
        every interval: Int, _ look: () throws(CLIError) -> Probe<Value>, expired: (_ lastSeen: String) -> CLIError
    ) throws(CLIError) -> Value {
        let deadline = now() + timeout
        while true {
            switch try look() {
            case .done(let value): return value
            case .notYet(let seen): guard now() < deadline else { throw expired(seen) }
            }
            pause(interval)
        }
    }
}
