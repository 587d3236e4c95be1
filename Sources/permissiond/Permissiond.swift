import ArgumentParser
import Foundation
import PermissionDaemon
import PermissionStore
import RelaunchContract

/// permissiond: the permission daemon. Owns `org.relaunch.Permissions1` on the system bus, stores
/// permission states durably and, when a change requires it, has systemd SIGKILL the app's unit.
/// The daemon itself is the PermissionDaemon library; this parses the arguments and runs it.
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

    @Flag(name: .customLong("print-example-config"), help: "Print a commented example configuration and exit.")
    var printExampleConfiguration = false

    func run() async throws {
        if printExampleConfiguration {
            print(PermissionConfiguration.example, terminator: "")
            return
        }
        let daemon = Daemon(
            databasePath: database, configurationPath: configurationPath,
            appFolders: appsFolders.isEmpty ? AppRegistry.defaultFolders : appsFolders)
        do throws(DaemonError) {
            try await daemon.run(environment: ProcessInfo.processInfo.environment)
        } catch {
            error.report()
            throw ExitCode.failure
        }
    }
}
