import Synchronization

/// polkit's answer for one caller and action.
package enum PolkitVerdict: Sendable, Hashable {
    /// The caller may do it.
    case authorized
    /// The caller could, after authenticating (not authorized yet).
    case challenge
    /// The caller may not.
    case denied
}

/// Asks polkit whether a bus client may do an action (``PolkitAuthority`` over the system bus).
package protocol PolkitChecking: Sendable {
    /// polkit's answer for `busName` and `action`.
    ///
    /// - Throws: ``BusError`` when polkit cannot be asked or did not answer in time.
    func check(action: String, busName: String, interactive: Bool) async throws(BusError) -> PolkitVerdict
}

extension PolkitAuthority: PolkitChecking {
    package func check(action: String, busName: String, interactive: Bool) async throws(BusError) -> PolkitVerdict {
        let answer: Answer = try await check(action: action, busName: busName, interactive: interactive)
        return answer.isAuthorized ? .authorized : answer.isChallenge ? .challenge : .denied
    }
}

/// How a daemon asks polkit about callers who are not root, so that strangers who call in a flood
/// cost themselves and not the others, nor polkit (which systemd asks too, e.g. whether
/// permissiond may kill a unit):
/// - **A budget per uid** (``WorkBudget``): a few checks of one uid at once, the rest wait their
///   turn behind that uid's own; past its waiting room a call is refused at once (LimitsExceeded).
/// - **A refusal is remembered per connection**: once polkit said no (or "authenticate first") to a
///   call that allowed no prompt, the same connection's next such call for the same action gets
///   the same answer without polkit. A unique bus name is never reused while the bus runs; a prompt
///   (an interactive call) always goes to polkit, and a yes forgets the connection's refusals.
///   Forgotten at ``forgetAll()`` (a reconnect, a reload) and past ``refusalCapacity`` names.
/// - **Remembered refusals come at a pace per uid** (``refusalInterval`` apart): a flooder that
///   sends the same call again the moment it is refused waits, holding nothing but its own calls,
///   instead of spinning the bus daemon and this daemon's serving thread.
package final class PolkitGate: Sendable {
    private struct Refusals {
        var byName: [String: [String: PolkitVerdict]] = [:]
        /// When the next remembered refusal of each uid may be answered.
        var nextAnswer: [UInt32: ContinuousClock.Instant] = [:]
    }

    let polkit: any PolkitChecking
    let budget: WorkBudget<UInt32>
    private let refusals = Mutex(Refusals())
    /// The time between two remembered refusals of one uid.
    package let refusalInterval: Duration
    private let sleep: @Sendable (Duration) async -> Void
    package static let refusalCapacity = 4096

    /// Asks `polkit` within `limits`; remembered refusals of one uid come `refusalInterval` apart.
    package init(
        polkit: any PolkitChecking, limits: WorkBudgetLimits, refusalInterval: Duration = .milliseconds(20),
        sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    ) {
        self.polkit = polkit
        budget = WorkBudget("authorization checks", limits: limits)
        self.refusalInterval = refusalInterval
        self.sleep = sleep
    }

    /// polkit's verdict for the caller `busName` (of `uid`) and `action`.
    ///
    /// - Throws: ``BusError``: LimitsExceeded when `uid` has too many checks waiting; polkit's or
    ///   the bus's error when polkit could not be asked (never a yes).
    package func check(action: String, busName: String, uid: UInt32, interactive: Bool) async throws(BusError) -> PolkitVerdict {
        if !interactive, let refused = remembered(action, busName) {
            await sleep(nextRefusalDelay(uid: uid))
            return refused
        }
        let polkit = polkit
        let verdict = try await budget.run(for: uid, describedAs: "uid \(uid)") { () throws(BusError) in
            try await polkit.check(action: action, busName: busName, interactive: interactive)
        }
        refusals.withLock { refusals in
            switch verdict {
            case .authorized:
                refusals.byName[busName] = nil
            case .denied, .challenge:
                guard !interactive else { return }
                if refusals.byName.count >= Self.refusalCapacity && refusals.byName[busName] == nil {
                    refusals.byName.removeAll()
                }
                refusals.byName[busName, default: [:]][action] = verdict
            }
        }
        return verdict
    }

    /// Forgets every refusal (the bus connection was made anew, or the configuration reloaded).
    package func forgetAll() {
        refusals.withLock { $0 = Refusals() }
    }

    private func remembered(_ action: String, _ busName: String) -> PolkitVerdict? {
        refusals.withLock { $0.byName[busName]?[action] }
    }

    /// How long this remembered refusal of `uid` waits: the uid's refusals come one per interval.
    private func nextRefusalDelay(uid: UInt32) -> Duration {
        let now = ContinuousClock.now
        return refusals.withLock { refusals in
            let slot = max(now, refusals.nextAnswer[uid] ?? now)
            refusals.nextAnswer[uid] = slot + refusalInterval
            if refusals.nextAnswer.count > Self.refusalCapacity { refusals.nextAnswer = [uid: slot + refusalInterval] }
            return slot - now
        }
    }
}
