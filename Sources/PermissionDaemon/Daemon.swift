import Foundation
package import Logging
import PermissionStore
package import RelaunchContract
import ServiceLifecycle
import Systemd
import UnixSignals

/// permissiond put together: the store, the configuration, the link to systemd and polkit, the
/// bus server and the reloader, run as one `ServiceGroup` until SIGTERM or SIGINT.
package struct Daemon: Sendable {
    /// `--database`, if given.
    package var databasePath: String?
    /// `--config`, if given.
    package var configurationPath: String?
    /// The apps.d folders to read.
    package var appFolders: [String]

    package init(databasePath: String?, configurationPath: String?, appFolders: [String]) {
        self.databasePath = databasePath
        self.configurationPath = configurationPath
        self.appFolders = appFolders
    }

    /// The configuration file and the apps.d registrations; a bad registration file is skipped and
    /// named in the journal (file, line, fault), a bad configuration file is an error.
    package static func loadConfiguration(
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

    /// Whether the sandbox's test hooks are on: only with `RELAUNCH_TEST_HOOKS=1` exactly (the
    /// sandbox's drop-in sets it; a host never does).
    package static func testHooksEnabled(environment: [String: String]) -> Bool {
        environment["RELAUNCH_TEST_HOOKS"] == "1"
    }

    /// Serves until SIGTERM or SIGINT; every write in flight has finished before the store closes.
    ///
    /// - Throws: ``DaemonError`` when the configuration, the database or the bus cannot be used.
    package func run(environment: [String: String]) async throws(DaemonError) {
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, identifier: "permissiond") }
        let logger = Logger(label: "permissiond")
        let appFolders = appFolders

        let settings = try DaemonSettings.resolve(
            database: databasePath, configuration: configurationPath, environment: environment)
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

        // Outgoing calls go over links of their own, each processed from the start (an unprocessed
        // connection is dropped by dbus-daemon after 30 s) and reopened when the bus or its peer went
        // away; never the serving connection, whose thread must stay free for reads. Three links,
        // because dbus-daemon lets one connection wait for at most 128 replies: the writer's calls to
        // systemd (the running instance, KillUnit, ResetFailedUnit) have a link that only trusted
        // work reaches, so no stranger's traffic can fill it; the caller lookups and the polkit
        // checks, done for anyone who calls, each have one, filled only as far as their budgets let
        // (docs/DESIGN.md, "Budgets for strangers").
        let systemdLink = BusLink()
        let lookupLink = BusLink()
        let polkitLink = BusLink()
        let hooks = Self.testHooksEnabled(environment: environment) ? TestHooks() : nil
        let effects = EffectPerformer(logger: logger)
        let standbys = StandbyRegistry()
        let systemd = SystemdUnitController(link: systemdLink, standbys: standbys) { unit, pid in
            effects.requestKill(unit: unit, pid: pid)
        }
        let authorizer = PolkitAuthorizer(authority: PolkitAuthority(link: polkitLink))
        let service = PermissionService(
            database: store, configuration: configuration,
            units: hooks.map { HookedUnitController(units: systemd, hooks: $0) } ?? systemd,
            authorizer: authorizer, oneTimeDelay: settings.oneTimeDelay)
        let server = PermissionsBusServer(
            service: service, notifier: ServiceNotifier(), logger: logger, testHooks: hooks, link: lookupLink,
            effects: effects, standbys: standbys, forgetNames: { authorizer.forgetRefusals() })
        let reloader = Reloader(notifier: ServiceNotifier(), logger: logger) { () throws(DaemonError) in
            service.reload(try Self.loadConfiguration(settings, appFolders: appFolders, logger: logger))
            systemd.kills.forgetLimits()  // the units' start limits are read again at the next kill
            authorizer.forgetRefusals()  // polkit's rules or groups may have changed too
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
            // Returns once the server has awaited its writes (PermissionWork.run): then the store closes.
            try await group.run()
        } catch let error as DaemonError {
            throw error
        } catch {
            throw DaemonError("stopped serving \(BusNames.Permissions.service): \(error)")
        }
        for link in [systemdLink, lookupLink, polkitLink] { link.close() }
        logger.notice("stopped serving \(BusNames.Permissions.service)")
    }
}
