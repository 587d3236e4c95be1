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
/// - **One question at a time per connection and action**: calls that allow no prompt and arrive
///   while polkit is being asked the same about the same connection wait for that answer instead
///   of asking again. A connection holding 16 calls costs polkit one check, not 16 (a flood of 200
///   such connections kept polkitd busy for seconds, and everyone on the machine paid for its CPU).
/// - **Remembered refusals come at a pace per uid** (``refusalInterval`` apart): a flooder that
///   sends the same call again the moment it is refused waits, holding nothing but its own calls,
///   instead of spinning the bus daemon and this daemon's serving thread.
package final class PolkitGate: Sendable {
    private struct Question: Hashable {
        let busName: String
        let action: String
    }
    private typealias Waiter = CheckedContinuation<Turn, Never>
    private struct Refusals {
        var byName: [String: [String: PolkitVerdict]] = [:]
        /// When the next remembered refusal of each uid may be answered.
        var nextAnswer: [UInt32: ContinuousClock.Instant] = [:]
        /// The questions (allowing no prompt) polkit is being asked now, with the calls waiting for
        /// each answer. Kept by ``forgetAll()``: those calls are still waiting.
        var asking: [Question: [Waiter]] = [:]
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
        if interactive {
            return try await ask(action: action, busName: busName, uid: uid, interactive: true)
        }
        let question = Question(busName: busName, action: action)
        let turn = await withCheckedContinuation { (call: Waiter) in
            let now = refusals.withLock { refusals -> Turn? in
                if let refused = refusals.byName[busName]?[action] { return .refused(refused) }
                if refusals.asking[question] != nil {
                    refusals.asking[question]!.append(call)
                    return nil
                }
                refusals.asking[question] = []
                return .asker
            }
            if let now { call.resume(returning: now) }
        }
        switch turn {
        case .refused(let refused):
            await sleep(nextRefusalDelay(uid: uid))
            return refused
        case .answered(let answer):
            let verdict = try answer.get()
            if verdict != .authorized { await sleep(nextRefusalDelay(uid: uid)) }
            return verdict
        case .asker:
            let answer: Result<PolkitVerdict, BusError>
            do {
                answer = .success(try await ask(action: action, busName: busName, uid: uid, interactive: false))
            } catch {
                answer = .failure(error)
            }
            let waiting = refusals.withLock { $0.asking.removeValue(forKey: question) ?? [] }
            for call in waiting { call.resume(returning: .answered(answer)) }
            return try answer.get()
        }
    }

    /// What a call that allows no prompt does: answer a remembered refusal, take the answer to the
    /// same question already being asked, or ask it.
    private enum Turn: Sendable {
        case refused(PolkitVerdict)
        case answered(Result<PolkitVerdict, BusError>)
        case asker
    }

    private func ask(action: String, busName: String, uid: UInt32, interactive: Bool) async throws(BusError) -> PolkitVerdict {
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
        refusals.withLock { refusals in
            refusals.byName = [:]
            refusals.nextAnswer = [:]
        }
    }

    /// How many calls wait for polkit's answer to the question being asked about `busName` and `action`.
    package func callsWaiting(busName: String, action: String) -> Int {
        refusals.withLock { $0.asking[Question(busName: busName, action: action)]?.count ?? 0 }
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
