import Synchronization

/// The apps whose change is being committed after their kill was already asked for, and the reads
/// of them that wait for it.
///
/// A kill that a standby carries out is asked for before the change is committed (docs/DESIGN.md,
/// "The kill before the commit"), so the process that comes back could ask for its permissions
/// before the store has them. Its reads are the only ones that could, so every read of an app's
/// permissions and kills waits while such a change of the app is in flight, and is answered from
/// what was then committed.
package final class ChangesInFlight: Sendable {
    private struct State {
        var changing: [String: Int] = [:]
        var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    }
    private let state = Mutex(State())

    package init() {}

    /// A change of `app` is in flight until ``end(_:)``.
    package func begin(_ app: String) {
        state.withLock { $0.changing[app, default: 0] += 1 }
    }

    /// The change of `app` begun last is committed (or failed): the reads waiting are answered once
    /// no other change of it is in flight.
    package func end(_ app: String) {
        let released: [CheckedContinuation<Void, Never>] = state.withLock { state in
            guard let count = state.changing[app] else { return [] }
            guard count <= 1 else {
                state.changing[app] = count - 1
                return []
            }
            state.changing[app] = nil
            return state.waiting.removeValue(forKey: app) ?? []
        }
        for reader in released { reader.resume() }
    }

    /// Whether a change of `app` is in flight (a read of it must wait: ``settled(_:)``).
    package func isChanging(_ app: String) -> Bool {
        state.withLock { $0.changing[app] != nil }
    }

    /// How many reads of `app` wait now.
    package func waitingReads(_ app: String) -> Int {
        state.withLock { $0.waiting[app]?.count ?? 0 }
    }

    /// Returns once no change of `app` is in flight.
    package func settled(_ app: String) async {
        await withCheckedContinuation { (reader: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.changing[app] != nil else { return true }
                state.waiting[app, default: []].append(reader)
                return false
            }
            if now { reader.resume() }
        }
    }
}
