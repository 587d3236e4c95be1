package import Logging
import ServiceLifecycle
package import Systemd
import UnixSignals

/// `systemctl reload permissiond` (ExecReload sends SIGHUP): reads the configuration and the apps.d
/// registrations again and swaps them in whole, telling systemd RELOADING=1 and then READY=1.
/// Nothing stored is touched; a reload that fails keeps the configuration it had.
package struct Reloader: Service {
    let notifier: ServiceNotifier
    let logger: Logger
    /// Loads and applies the new configuration; returns the registered app ids.
    let reload: @Sendable () throws(DaemonError) -> [String]

    package init(notifier: ServiceNotifier, logger: Logger, reload: @escaping @Sendable () throws(DaemonError) -> [String]) {
        self.notifier = notifier
        self.logger = logger
        self.reload = reload
    }

    package func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        for await _ in hangups.cancelOnGracefulShutdown() {
            _ = try? notifier.notify([.reloading, .status("Reloading app registrations")])
            do throws(DaemonError) {
                let apps = try reload()
                logger.notice("reloaded: apps \(apps.joined(separator: ", "))")
            } catch {
                logger.error("reload failed, keeping the configuration it had: \(error)")
            }
            _ = try? notifier.notify([.ready, .status("Serving org.relaunch.Permissions1")])
        }
    }
}
