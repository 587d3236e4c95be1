internal import CheckIn
internal import Logging
internal import RelaunchContract
internal import RestorationKit
internal import ServiceLifecycle
internal import UnixSignals
internal import Systemd
internal import RelaunchBus

#if canImport(Glibc)
import Glibc
#endif

/// checkin-demo: the supervised demo app (checkin-demo.service, Type=notify).
///
/// Launch (restore from the file or the fd store copy, as the engine decides), READY=1, then the bus
/// name; the app, the watchdog pinger and the D-Bus service run in one ServiceGroup that shuts down
/// gracefully on SIGTERM and SIGINT.
@main
enum CheckInDemo {
    static func main() async {
        letFatalSignalsKill()
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, identifier: "checkin-demo") }
        let logger = Logger(label: "checkin-demo")
        do {
            guard let configuration = try DemoConfiguration.load(arguments: CommandLine.arguments) else { exit(0) }
            try await run(configuration, logger: logger)
            exit(0)
        } catch let error as DemoError {
            logger.critical("\(error.message)")
            exit(error.exitStatus)
        } catch {
            logger.critical("checkin-demo failed: \(error)")
            exit(1)
        }
    }

    /// Gives SIGABRT (the watchdog's signal, `abort()`) and the other fatal signals back their default
    /// action, unless `SWIFT_BACKTRACE` asks for the Swift backtracer.
    ///
    /// The backtracer's handler starts `swift-backtrace`, which cannot load under the unit's
    /// `MemoryDenyWriteExecute=yes` (it needs an executable stack); the dying process then hangs until
    /// systemd's `TimeoutAbortSec` (10 s) SIGKILLs it, so a watchdog relaunch took 15 s instead of 5.
    static func letFatalSignalsKill() {
        guard DemoConfiguration.environment("SWIFT_BACKTRACE") == nil else { return }
        for signal in [SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGQUIT] {
            _ = Glibc.signal(signal, SIG_DFL)
        }
    }

    static func run(_ configuration: DemoConfiguration, logger: Logger) async throws {
        let notifier = ServiceNotifier()
        let connection: BusConnection?
        do {
            connection = try BusConnection.system()
        } catch {
            logger.warning("could not connect to the system bus; no permissions and no D-Bus input", metadata: [
                "ERROR": "\(error)",
            ])
            connection = nil
        }
        let savedState = SavedState(directory: configuration.stateDirectory, notifier: notifier, logger: logger)
        let launcher = AppLauncher(
            configuration: configuration, savedState: savedState,
            permissions: connection.map { PermissionsClient(bus: $0, timeout: .seconds(1)) }, appID: CheckInDemoApp.appID,
            logger: logger)
        let (app, report) = launcher.launch()
        let host = AppHost(app: app, configuration: configuration, savedState: savedState, notifier: notifier, logger: logger)

        // READY=1 before the bus name: whoever finds the name finds a launched, restored app.
        let outcome = report.outcome == .discarded ? "discarded \(report.discardReason?.rawValue ?? "")" : report.outcome.rawValue
        try notifier.ready(status: host.status(suffix: outcome))
        launcher.recordInvocation()

        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [
                .init(service: BusService(
                        connection: connection, interface: DemoBusInterface(host: host, logger: logger), host: host,
                        notifier: notifier, logger: logger),
                      successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "dbus"),
                .init(service: AppService(host: host),
                      successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "app"),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        try await group.run()
    }
}
