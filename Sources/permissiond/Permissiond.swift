import ArgumentParser
import Foundation
import Logging
import PermissionStore
import RelaunchContract
import ServiceLifecycle
import Systemd
import UnixSignals

/// permissiond: the permission daemon. Owns `org.relaunch.Permissions1` on the system bus, stores
/// permission states durably and, when a change requires it, has systemd SIGKILL the app's unit.
@main
struct Permissiond: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "permissiond",
        abstract: "The Relaunch permission daemon (org.relaunch.Permissions1 on the system bus).",
        discussion: """
            Serves Get, List, ListApps, Set, Reset and LastKill, emits Changed, and kills an app's \
            unit (KillUnit main SIGKILL) when the kill policy says a change needs it. Started by \
            permissiond.service (Type=notify, watchdog); exits 0 on SIGTERM or SIGINT.

            Environment:
              RELAUNCH_KILL_POLICY   ios or android: overrides the configuration's kill-policy
              STATE_DIRECTORY        set by systemd (StateDirectory=): where the database lives

            Exit status: 0 after SIGTERM/SIGINT, 1 when the configuration, the database or the bus \
            cannot be used (one line on stderr says which and what to do).
            """)

    @Option(name: .long, help: ArgumentHelp(
        "The SQLite permission store.", discussion: "Default: $STATE_DIRECTORY/permissions.db, else ./permissions.db.",
        valueName: "path"))
    var database: String?

    @Option(name: .customLong("config"), help: ArgumentHelp(
        "The configuration file; absent means the built-in defaults.",
        discussion: "Default: \(PermissionConfiguration.defaultPath).", valueName: "path"))
    var configurationPath: String?

    @Option(name: .customLong("apps-d"), parsing: .singleValue, help: ArgumentHelp(
        "A folder of app registrations (APP.conf); repeat for several, earliest wins.",
        discussion: "Default: \(AppRegistry.defaultFolders.joined(separator: ", ")).", valueName: "folder"))
    var appsFolders: [String] = []

    /// The apps.d folders to read.
    private var appFolders: [String] { appsFolders.isEmpty ? AppRegistry.defaultFolders : appsFolders }

    @Flag(name: .customLong("print-example-config"), help: "Print a commented example configuration and exit.")
    var printExampleConfiguration = false

    func run() async throws {
        if printExampleConfiguration {
            print(PermissionConfiguration.example, terminator: "")
            return
        }
        do {
            try await serve()
        } catch {
            error.report()
            throw ExitCode.failure
        }
    }

    /// The configuration file and the apps.d registrations; a bad registration file is skipped and
    /// named in the journal (file, line, fault), a bad configuration file is an error.
    static func loadConfiguration(
        _ settings: DaemonSettings, appFolders: [String], logger: Logger
    ) throws(DaemonError) -> PermissionConfiguration {
        var configuration: PermissionConfiguration
        do {
            configuration = try PermissionConfiguration.load(path: settings.configurationPath)
        } catch {
            throw DaemonError("bad configuration: \(error)")
        }
        if let policy = settings.killPolicyOverride { configuration.killPolicy = policy }
        configuration.registry = AppRegistry.load(folders: appFolders)
        for problem in configuration.registry.problems {
            logger.warning("skipped app registration \(problem)", metadata: [
                "REGISTRATION_FILE": "\(problem.file)", "REGISTRATION_LINE": "\(problem.line.map(String.init) ?? "")",
                "FAULT": "\(problem.fault)",
            ])
        }
        return configuration
    }

    private func serve() async throws(DaemonError) {
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, identifier: "permissiond") }
        let logger = Logger(label: "permissiond")

        let settings = try DaemonSettings.resolve(
            database: database, configuration: configurationPath, environment: ProcessInfo.processInfo.environment)
        let configuration = try Self.loadConfiguration(settings, appFolders: appFolders, logger: logger)

        let store: PermissionDatabase
        do {
            store = try PermissionDatabase(path: settings.databasePath)
        } catch {
            throw DaemonError("\(error)")
        }
        defer {
            do {
                try store.close()
            } catch {
                logger.error("closing the permission database failed: \(error)")
            }
        }

        // Calls to systemd and polkit go over a link of their own: processed from the start (an
        // unprocessed connection is dropped by dbus-daemon after 30 s) and reopened when the bus or
        // systemd went away. Never the serving connection, whose thread must stay free for reads.
        let link = BusLink()
        let hooks = ProcessInfo.processInfo.environment["RELAUNCH_TEST_HOOKS"] == "1" ? TestHooks() : nil
        let systemd = SystemdUnitController(link: link)
        let service = PermissionService(
            database: store, configuration: configuration,
            units: hooks.map { HookedUnitController(units: systemd, hooks: $0) } ?? systemd,
            authorizer: PolkitAuthorizer(authority: PolkitAuthority(link: link)))
        let server = PermissionsBusServer(
            service: service, notifier: ServiceNotifier(), logger: logger, testHooks: hooks, link: link)
        let reloader = Reloader(notifier: ServiceNotifier(), logger: logger) { () throws(DaemonError) in
            service.reload(try Self.loadConfiguration(settings, appFolders: appFolders, logger: logger))
            systemd.kills.forgetLimits()  // the units' start limits are read again at the next kill
            return service.configuration.apps
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    ServiceGroupConfiguration.ServiceConfiguration(service: server),
                    ServiceGroupConfiguration.ServiceConfiguration(service: reloader),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        do {
            try await group.run()
        } catch let error as DaemonError {
            throw error
        } catch {
            throw DaemonError("stopped serving \(BusNames.Permissions.service): \(error)")
        }
        link.close()
        logger.notice("stopped serving \(BusNames.Permissions.service)")
    }
}
