package import Systemd

/// The journal of the machine a check runs on, read as reviewers read it: every namespace (the apps
/// and permissiond log to their own, `LogNamespace=`; PID 1 to the default one).
package enum Journal {
    /// A place in the journal: entries written after it are what a step caused.
    package struct Mark: Sendable {
        package let realtimeMicroseconds: UInt64
    }

    /// The journal's end now. Entries matched `after:` this mark are those stamped later.
    package static func mark() throws -> Mark {
        let reader = try JournalReader(flags: [.localOnly, .allNamespaces])
        try reader.seekTail()
        let last = try reader.previousEntry()
        return Mark(realtimeMicroseconds: last?.realtimeMicroseconds ?? 0)
    }

    /// The entries matching every FIELD=VALUE of `matches` (after `mark`, when given), waiting, bounded
    /// by `timeout`, until `enough` says they are all there: an app's entries reach journald over a
    /// socket of their own, so they may come just after the state that follows them. Throws
    /// `CheckFailure` at the bound, saying what it found.
    package static func entries(
        _ matches: [String: String], after mark: Mark? = nil, timeout: Duration = .seconds(30),
        until enough: ([JournalEntry]) -> Bool = { !$0.isEmpty }
    ) throws -> [JournalEntry] {
        let reader = try JournalReader(flags: [.localOnly, .allNamespaces])
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var found: [JournalEntry] = []
        while true {
            reader.flushMatches()
            for (field, value) in matches.sorted(by: { $0.key < $1.key }) { try reader.addMatch(field, value) }
            // From the head, the mark applied here: with matches, a seek into the middle can skip
            // entries that match on systemd 252 (RelaunchctlCore's UnitState says so too).
            try reader.seekHead()
            found = try reader.entries()
            if let mark { found.removeAll { $0.realtimeMicroseconds <= mark.realtimeMicroseconds } }
            if enough(found) { return found }
            let left = deadline - clock.now
            guard left > .zero else { break }
            // Wakes when the journal changes, or at the bound.
            _ = try reader.wait(timeout: min(left, .seconds(1)))
        }
        throw CheckFailure(
            "waited \(timeout) for journal entries \(matches); found \(found.count): \(found.map { $0.message ?? "" })")
    }
}
