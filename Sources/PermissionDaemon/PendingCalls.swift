import Synchronization
package import Systemd

/// How many calls each caller has waiting for an answer (an authorization, the writer), so one
/// caller cannot pile up work: past ``limit`` its next call is refused at once with LimitsExceeded.
package final class PendingCalls: Sendable {
    package let limit: Int
    private let counts = Mutex<[String: Int]>([:])

    package init(limit: Int) {
        self.limit = limit
    }

    /// Counts one more call of `sender`, or throws LimitsExceeded when it has ``limit`` waiting.
    package func admit(_ sender: String?) throws(BusError) -> String {
        let key = sender ?? ""
        let admitted = counts.withLock { counts in
            guard counts[key, default: 0] < limit else { return false }
            counts[key, default: 0] += 1
            return true
        }
        guard admitted else {
            throw BusError(
                name: BusError.limitsExceededName,
                message: "this connection already has \(limit) calls waiting for an answer; wait for them first")
        }
        return key
    }

    /// The call admitted for `key` was answered.
    package func release(_ key: String) {
        counts.withLock { counts in
            let left = counts[key, default: 1] - 1
            counts[key] = left > 0 ? left : nil
        }
    }
}

