public import RelaunchApp
public import RelaunchContract
internal import Logging
internal import ServiceLifecycle
internal import Systemd
internal import RelaunchBus
internal import RestorationKit
internal import UnixSignals
internal import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Runs a RestorationKit app as a supervised Relaunch app under systemd (`Type=notify`).
///
/// At launch it learns the app's permissions and how the last instance ended from permissiond,
/// restores from `$STATE_DIRECTORY` or systemd's fd store (newest valid wins) with the restoring
/// mark and every discard reason, says READY=1, then serves `org.relaunch.App1` on the app's bus
/// name, follows permissiond (Changed, its name owner), pings the watchdog from the loop that
/// serves, preserves on background and on SIGTERM in the background, and writes the contract's
/// journal events. An app's executable is its identity and one call:
///
/// ```swift
/// @main enum MyApp {
///     static func main() {
///         RelaunchHost.run(identity: .init(program: "my-app", ...)) { build, permissions in
///             MyApp(build: build, camera: permissions[.camera] ?? .notDetermined)
///         }
///     }
/// }
/// ```
public enum RelaunchHost {
    /// Runs the app until it quits or systemd stops it, then exits the process.
    ///
    /// The launch (permissions, the saved state, the restore and READY=1) runs synchronously on the
    /// calling thread, before the Swift concurrency runtime starts a thread: a relaunch waits for
    /// nothing it does not need. Serving D-Bus, the watchdog and the app's own work then run as
    /// tasks while the main thread drains the main queue. Call it from a synchronous `main()`.
    ///
    /// - Parameters:
    ///   - identity: who the app is (program name, build, default app id and bus name).
    ///   - makeApp: creates the app from the running build and the permissions permissiond holds.
    public static func run<App: HostableApp>(
        identity: AppIdentity,
        makeApp: @escaping @Sendable (_ build: String, _ permissions: [Permission: PermissionState]) -> App
    ) -> Never {
        var timings = LaunchTimings(main: LaunchTimings.now())
        letFatalSignalsKill()
        // Before anything else, while this process is one thread that has read nothing: its standby's
        // template. A template goes on from here only once it is to stand by.
        let forked = HostConfiguration.keepsStandby() ? StandbyTemplate.fork() : StandbyTemplate.Forked()
        if forked.standingBy != nil { timings = LaunchTimings(main: LaunchTimings.now()) }
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, identifier: identity.program) }
        let logger = Logger(label: identity.program)
        let group: ServiceGroup
        do {
            guard var configuration = try HostConfiguration.load(arguments: CommandLine.arguments, identity: identity)
            else { exit(0) }
            if forked.standingBy != nil { configuration.isStandby = true }
            var takeOver: Standby.TakeOver?
            var connection: BusConnection??
            if configuration.isStandby {
                // Connected to the bus beforehand (its authentication and Hello are no part of a relaunch),
                // but nothing is read before the wait returns: the permissions and the state come after the kill.
                let preconnected = try? BusConnection.system()
                connection = .some(preconnected)
                let killed = Standby.waitForTakeOver(
                    on: forked.standingBy ?? ProcessLink(adopting: Standby.linkDescriptor),
                    since: timings.main, connection: preconnected, app: configuration.appID, logger: logger)
                timings = LaunchTimings(main: LaunchTimings.now())
                try becomeMainProcess(killed, timings: timings, logger: logger)
                takeOver = killed
            }
            group = try launch(
                configuration, takeOver: takeOver, connection: connection, standbyTemplate: forked.template, logger: logger,
                timings: &timings, makeApp: makeApp)
        } catch {
            fail(error, identity: identity, logger: logger)
        }
        Task {
            do {
                try await group.run()
            } catch {
                fail(error, identity: identity, logger: logger)
            }
            exit(0)
        }
        dispatchMain()
    }

    /// Logs `error` as the reason the app ends and exits with its status.
    static func fail(_ error: any Error, identity: AppIdentity, logger: Logger) -> Never {
        if let error = error as? HostError {
            logger.critical("\(error.message)")
            exit(error.exitStatus)
        }
        logger.critical("\(identity.program) failed: \(error)")
        exit(1)
    }

    /// Gives SIGABRT (the watchdog's signal, `abort()`) and the other fatal signals back their default
    /// action, unless `SWIFT_BACKTRACE` asks for the Swift backtracer.
    ///
    /// The backtracer's handler starts `swift-backtrace`, which cannot load under the unit's
    /// `MemoryDenyWriteExecute=yes` (it needs an executable stack); the dying process then hangs until
    /// systemd's `TimeoutAbortSec` (10 s) SIGKILLs it, so a watchdog relaunch took 15 s instead of 5.
    static func letFatalSignalsKill() {
        for signal in fatalSignalsToDefault(environment: HostConfiguration.environment) {
            _ = Glibc.signal(signal, SIG_DFL)
        }
    }

    /// The fatal signals ``letFatalSignalsKill()`` gives their default action: none when
    /// `SWIFT_BACKTRACE` is set (someone asked for the backtracer), else every one it handles.
    static func fatalSignalsToDefault(environment: (String) -> String?) -> [Int32] {
        guard environment("SWIFT_BACKTRACE") == nil else { return [] }
        return [SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGQUIT]
    }

    /// How READY=1's status line ends: the launch's outcome, and why a discarded one was discarded.
    static func readyStatusSuffix(_ report: LaunchReport) -> String {
        report.outcome == .discarded ? "discarded \(report.discardReason?.rawValue ?? "")" : report.outcome.rawValue
    }

    /// The standby's first act after the kill: `MAINPID=` (systemd now supervises this process as the
    /// unit's main one: watchdog, notifications, `KillUnit(…, "main", …)`), then the journal says so.
    static func becomeMainProcess(_ takeOver: Standby.TakeOver, timings: LaunchTimings, logger: Logger) throws {
        try ServiceNotifier().notify(.mainPID(getpid()))
        var fields = [
            "TAKEN_OVER_PID": "\(takeOver.killedPID)", "TAKEOVER_PHASE": "main",
            "TAKEOVER_GONE_USEC": "\(takeOver.goneUSec)", "STANDBY_SINCE_USEC": "\(takeOver.standbySinceUSec)",
            "LAUNCH_MAIN_USEC": "\(timings.main)",
        ]
        // Who sent the SIGKILL: this standby on permissiond's request, or (no field) systemd.
        if let sent = takeOver.killSentUSec { fields["TAKEOVER_KILL_SENT_USEC"] = "\(sent)" }
        let by = takeOver.killSentUSec == nil ? "" : " (SIGKILLed by the standby on permissiond's request)"
        logger.event(.standbyTookOver, "standby took over from killed process \(takeOver.killedPID)\(by)", fields)
    }

    /// Launches the app and says READY=1; returns the services that serve it from then on.
    static func launch<App: HostableApp>(
        _ configuration: HostConfiguration, takeOver: Standby.TakeOver? = nil, connection preconnected: BusConnection?? = nil,
        standbyTemplate: ProcessLink? = nil, logger: Logger, timings: inout LaunchTimings,
        makeApp: (_ build: String, _ permissions: [Permission: PermissionState]) -> App
    ) throws -> ServiceGroup {
        let notifier = ServiceNotifier()
        let connection: BusConnection?
        do {
            if let preconnected {
                guard let preconnected else { throw BusError.failed("the standby could not connect to the system bus beforehand") }
                connection = preconnected
            } else {
                connection = try BusConnection.system()
            }
        } catch {
            logger.warning("could not connect to the system bus; no permissions and no D-Bus input", metadata: [
                "ERROR": "\(error)",
            ])
            connection = nil
        }
        let standby = configuration.keepsStandby ? StandbyKeeper(logger: logger, template: standbyTemplate) : nil
        let savedState: SavedState
        if let takeOver {
            // The killed process's newest archive memfd (the fd store's copy) comes over the link, not LISTEN_FDS.
            let handed = takeOver.archive.map { [ListenedFileDescriptor(fd: $0, name: SavedState.fileDescriptorName)] } ?? []
            savedState = SavedState(
                directory: configuration.stateDirectory, notifier: notifier, logger: logger, standby: standby,
                passedDescriptors: { () throws(SystemdError) in handed })
        } else {
            savedState = SavedState(directory: configuration.stateDirectory, notifier: notifier, logger: logger, standby: standby)
        }
        let launcher = AppLauncher<App>(
            configuration: configuration, savedState: savedState,
            permissions: connection.map { PermissionsClient(bus: $0, timeout: .seconds(1)) }, appID: configuration.appID,
            logger: logger)
        let (app, permissions, report) = launcher.launch(makeApp: makeApp)
        timings.restored = LaunchTimings.now()
        let reporter = connection.map { LifecycleReporter(bus: $0, app: configuration.appID, logger: logger) }
        let host = AppHost(
            app: app, permissions: permissions, configuration: configuration, savedState: savedState,
            notifier: notifier, logger: logger, reportLifecycle: { lifecycle in reporter?.report(lifecycle) })
        // A new instance starts the clock afresh: permissiond may still count the killed one's background.
        reporter?.report(host.lifecycle)

        // READY=1 before the bus name: whoever finds the name finds a launched, restored app.
        try notifier.ready(status: host.status(suffix: readyStatusSuffix(report)))
        timings.ready = LaunchTimings.now()
        launcher.recordInvocation()
        logger.info("launch timing: main() to restored \(timings.restored - timings.main) µs, to READY=1 \(timings.ready - timings.main) µs",
                    metadata: timings.fields.mapValues { .string($0) })
        if let takeOver {
            logger.event(.standbyTookOver, "standby took over from killed process \(takeOver.killedPID): ready", [
                "TAKEN_OVER_PID": "\(takeOver.killedPID)", "TAKEOVER_PHASE": "ready",
                "TAKEOVER_GONE_USEC": "\(takeOver.goneUSec)", "STANDBY_SINCE_USEC": "\(takeOver.standbySinceUSec)",
                "LAUNCH_READY_USEC": "\(timings.ready)",
            ])
        }
        // The next standby starts once the app owns its bus name: its exec and runtime start never delay
        // a launch, nor a driver's first call.
        let program = configuration.identity.program
        let bus = try BusService(
            connection: connection, interface: App1Server(host: host, logger: logger), host: host,
            notifier: notifier, logger: logger, whenServing: { standby?.spawn(program: program) })
        return ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [
                .init(service: bus, successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "dbus"),
                .init(service: AppService(host: host),
                      successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "app"),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
    }
}
