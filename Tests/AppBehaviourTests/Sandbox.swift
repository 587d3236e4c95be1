import Foundation
@testable import RelaunchTesting
import Systemd
import Testing

/// These tests drive the apps of a running sandbox: `tests/sandbox/run` runs them inside it with
/// RELAUNCH_BEHAVIOUR_TESTS=1 (`scripts/sandbox exec -- swift test --filter AppBehaviourTests`).
/// Elsewhere they are disabled, and scripts/test's plain `swift test` skips the suite.
enum Sandbox {
    static let isInside = ProcessInfo.processInfo.environment["RELAUNCH_BEHAVIOUR_TESTS"] == "1"
    static let reason: Comment = "drives the sandbox's apps; run inside it with RELAUNCH_BEHAVIOUR_TESTS=1"
}

/// The journal of the machine the tests run on, read as the checks read it.
enum Journal {
    /// The entries matching every FIELD=VALUE of `matches`, waiting (bounded by `timeout`) until
    /// `enough` says they are all there: an app's entries reach journald over a socket of their own,
    /// so they may come just after the state that follows them.
    static func entries(
        _ matches: [String: String], timeout: Duration = .seconds(30),
        until enough: ([JournalEntry]) -> Bool = { !$0.isEmpty }
    ) throws -> [JournalEntry] {
        // Every namespace: the apps and permissiond log to their own (LogNamespace=), PID 1 to the default.
        let reader = try JournalReader(flags: [.localOnly, .allNamespaces])
        let deadline = ContinuousClock.now + timeout
        var found: [JournalEntry] = []
        while true {
            reader.flushMatches()
            for (field, value) in matches.sorted(by: { $0.key < $1.key }) { try reader.addMatch(field, value) }
            try reader.seekHead()
            found = try reader.entries()
            if enough(found) { return found }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            // Wakes when the journal changes, or at the bound.
            _ = try reader.wait(timeout: min(left, .seconds(1)))
        }
        Issue.record("waited \(timeout) for journal entries \(matches); found \(found.count): \(found.map { $0.message ?? "" })")
        return found
    }
}
