import Foundation

/// Waits for a state with a bound: calls `poll` every `interval` until it says the state is reached,
/// and throws `CheckFailure` after `timeout`, naming what it waited for and what the last poll saw.
/// The bound only decides how long a broken run takes to say so; a wait ends as soon as its state is
/// reached. For a state only a poll can see (a unit's state, a file); where an event exists (the
/// journal, a bus signal), wait for the event.
public func waitUntil(
    _ what: String, timeout: Duration = .seconds(60), interval: Duration = .milliseconds(100),
    _ poll: () throws -> (done: Bool, seen: String)
) throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var seen = ""
    while true {
        let look = try poll()
        if look.done { return }
        seen = look.seen
        guard clock.now < deadline else {
            throw CheckFailure("timed out after \(timeout) waiting for \(what); last seen: \(seen.isEmpty ? "(nothing)" : seen)")
        }
        // A blocking sleep between polls of a state, as the bash checks' wait_until did.
        Thread.sleep(forTimeInterval: interval.timeInterval)
    }
}
