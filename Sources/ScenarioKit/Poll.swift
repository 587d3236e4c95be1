import RelaunchContract
import RelaunchDriver
package import RelaunchctlCore

extension Poll {
    /// `expect unit PROPERTY VALUE`: systemd gets there on its own time (a quitting app is
    /// `deactivating` for a moment), so `read` (the property's text now) is read until it is `value`.
    package func expectUnit(_ property: String, _ value: String, read: () throws(CLIError) -> String) throws(CLIError) {
        try wait(every: 20, { () throws(CLIError) -> Probe<Void> in
            let seen = try read()
            return seen == value ? .done(()) : .notYet(seen)
        }, expired: { seen in .failed("unit \(property): expected '\(value)', got '\(seen)' after \(timeout)") })
    }

    /// Waits until `unit` runs an instance other than `invocation`: `read` gives the unit's current
    /// invocation id.
    package func waitForNewInstance(
        of unit: String, after invocation: String, read: () throws(CLIError) -> String
    ) throws(CLIError) {
        try wait(every: 20, { () throws(CLIError) -> Probe<Void> in
            let current = try read()
            return current == invocation ? .notYet(current) : .done(())
        }, expired: { _ in .failed("systemd did not relaunch \(unit)") })
    }

    /// `expect state PATH VALUE`: an app learns of a change that did not kill it from permissiond's
    /// Changed signal, a moment after the change's call returned, so `read` (the app's state as JSON)
    /// is read until the value at `path` reads as `expected`.
    package func expectState(_ path: String, _ expected: String, read: () throws(CLIError) -> String) throws(CLIError) {
        try wait(every: 20, { () throws(CLIError) -> Probe<Void> in
            let text = try read()
            guard let state = JSONValue(jsonText: text) else {
                throw .failed("the app's state is not JSON: \(text.prefix(80))")
            }
            guard let value = state.value(at: path) else { throw .failed("state has no \(path)") }
            return value.scalarText == expected ? .done(()) : .notYet(value.scalarText)
        }, expired: { seen in .failed("state \(path): expected '\(expected)', got '\(seen)' after \(timeout)") })
    }

    /// `expect journal`: waits for an entry with every one of the matches `what` names; `count`
    /// says how many there are after the steps the expectation follows.
    package func expectJournalEntry(_ what: String, count: () throws(CLIError) -> Int) throws(CLIError) {
        try wait(every: 50, { () throws(CLIError) -> Probe<Void> in
            try count() > 0 ? .done(()) : .notYet("none")
        }, expired: { _ in .failed("no journal entry with \(what) after the steps this expectation follows (waited \(timeout))") })
    }

    /// `expect no-journal`: absence is proven up to a known point, not over a window of time. The
    /// runner has written `marker`, an entry of its own; `count` says how many matching entries lie
    /// after the steps the expectation follows and before the marker, and whether the marker was
    /// reached (once it is readable, so is everything sent before it). Fails at once on a match, and
    /// when the marker does not show up within the timeout.
    package func expectNoJournalEntry(
        _ what: String, marker: (field: String, value: String), count: () throws(CLIError) -> (count: Int, stopSeen: Bool)
    ) throws(CLIError) {
        try wait(every: 50, { () throws(CLIError) -> Probe<Void> in
            let seen = try count()
            if seen.count > 0 { throw .failed("unexpected journal entry with \(what)") }
            return seen.stopSeen ? .done(()) : .notYet("no marker")
        }, expired: { _ in
            .failed("the runner's journal marker \(marker.field)=\(marker.value) did not show up within \(timeout), so the absence of \(what) is not proven")
        })
    }
}
