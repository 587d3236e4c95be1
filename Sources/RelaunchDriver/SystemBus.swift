package import RelaunchContract
package import Systemd

/// One connection to the system bus with its loop on a thread of its own: every call is written with
/// `sd_bus_call_async` and completed by that loop, and signals are delivered there. Calls and waits
/// (a test's, `relaunchctl permission set --wait`'s) suspend; none blocks a thread of the cooperative pool.
package final class SystemBus: Sendable {
    package let connection: BusConnection

    /// Connects to the system bus (the sandbox's inside `scripts/sandbox exec`) and starts the loop.
    package init() throws(RelaunchTestingError) {
        do {
            connection = try BusConnection.system()
            try connection.startLoopThread()
        } catch {
            throw RelaunchTestingError(
                .unreachable,
                "cannot connect to the system bus (\(error)); run the tests where Relaunch runs, e.g. scripts/sandbox exec -- swift test")
        }
    }

    deinit {
        connection.stop()
    }

    /// Calls `member` and suspends until the reply; a bus failure becomes a ``RelaunchTestingError``
    /// that names `peer`.
    @discardableResult
    package func call(
        _ peer: String, destination: String, path: String, interface: String, member: String,
        _ arguments: [BusValue] = [], timeout: Duration? = nil
    ) async throws(RelaunchTestingError) -> BusValues {
        do {
            return try await connection.callAsync(
                destination: destination, path: path, interface: interface, member: member,
                arguments: arguments, timeout: timeout)
        } catch {
            throw .bus(error, talkingTo: peer)
        }
    }

    /// Like ``call(_:destination:path:interface:member:_:timeout:)``, but hands back the bus failure
    /// itself, for waits that treat "not there yet" as a state.
    @discardableResult
    package func attempt(
        destination: String, path: String, interface: String, member: String, _ arguments: [BusValue] = []
    ) async -> Result<BusValues, BusError> {
        do {
            return .success(try await connection.callAsync(
                destination: destination, path: path, interface: interface, member: member, arguments: arguments,
                timeout: .seconds(5)))
        } catch {
            return .failure(error)
        }
    }

    /// Calls `handler` on the loop thread for every signal matching `rule` while the subscription lives.
    package func subscribe(
        _ rule: BusMatchRule, _ handler: @escaping @Sendable (BusSignal) -> Void
    ) throws(RelaunchTestingError) -> BusSubscription {
        do {
            return try connection.subscribe(rule, handler: handler)
        } catch {
            throw .bus(error, talkingTo: "the system bus")
        }
    }
}
