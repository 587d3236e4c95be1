internal import Logging
internal import RelaunchBus
internal import Systemd

/// Tells permissiond where the app is in its life (`Lifecycle(app, background|active)`), one
/// report after another in the order they were made: a `background` overtaken by the `active`
/// after it would start the one-time grants' clock of an app in the foreground.
final class LifecycleReporter: Sendable {
    private let continuation: AsyncStream<String>.Continuation

    init(bus: BusConnection, app: String, logger: Logger) {
        let (reports, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(16))
        self.continuation = continuation
        Task {
            let client = PermissionsClient(bus: bus, timeout: .seconds(5))
            for await lifecycle in reports {
                // The first report may come before the connection's loop runs: try a few times.
                var lastError: BusError?
                for attempt in 0..<5 {
                    if attempt > 0 { try? await Task.sleep(for: .milliseconds(200)) }
                    do throws(BusError) {
                        try await client.lifecycle(app: app, lifecycle)
                        lastError = nil
                        break
                    } catch {
                        lastError = error
                    }
                }
                if let lastError {
                    logger.notice("could not tell permissiond the app is \(lifecycle) (its one-time grants' clock)", metadata: [
                        "ERROR": "\(lastError)",
                    ])
                }
            }
        }
    }

    /// Queues a report of `background` or `active` (other states are not reported); never waits.
    @Sendable func report(_ lifecycle: String) {
        guard lifecycle == "background" || lifecycle == "active" else { return }
        continuation.yield(lifecycle)
    }
}
