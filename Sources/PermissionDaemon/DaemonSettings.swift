import PermissionStore
package import RelaunchContract

/// Where permissiond keeps its store, where it reads its configuration, and the kill policy that
/// overrides the file's: resolved once at startup from the options and the environment.
package struct DaemonSettings: Sendable, Hashable {
    /// The SQLite store.
    package var databasePath: String
    /// The configuration file (absent means the built-in defaults).
    package var configurationPath: String
    /// `RELAUNCH_KILL_POLICY`, when set: wins over the configuration file's `kill-policy`.
    package var killPolicyOverride: KillPolicy?
    /// `RELAUNCH_ONE_TIME_DELAY` (seconds), when set: how long an app may stay in the background
    /// before its one-time grants expire, instead of its profile's delay (for tests).
    package var oneTimeDelay: Duration?

    /// The environment variable the scenario runner sets (through a runtime drop-in) to switch policies.
    package static let killPolicyVariable = "RELAUNCH_KILL_POLICY"
    /// The environment variable that shortens (or lengthens) the one-time grants' delay.
    package static let oneTimeDelayVariable = "RELAUNCH_ONE_TIME_DELAY"
    /// The store's file name inside the state directory.
    package static let databaseFileName = "permissions.db"

    /// Resolves the settings.
    ///
    /// - Parameters:
    ///   - database: `--database`, if given.
    ///   - configuration: `--config`, if given.
    ///   - environment: the process environment (`STATE_DIRECTORY`, `RELAUNCH_KILL_POLICY`,
    ///     `RELAUNCH_ONE_TIME_DELAY`).
    /// - Throws: ``DaemonError`` when `RELAUNCH_KILL_POLICY` names no policy, or
    ///   `RELAUNCH_ONE_TIME_DELAY` is not a number of seconds.
    package static func resolve(
        database: String?, configuration: String?, environment: [String: String]
    ) throws(DaemonError) -> Self {
        var policy: KillPolicy?
        if let raw = environment[killPolicyVariable], !raw.isEmpty {
            guard let parsed = KillPolicy(rawValue: raw) else {
                let accepted = KillPolicy.allCases.map(\.rawValue).joined(separator: ", ")
                throw DaemonError(
                    "\(killPolicyVariable)='\(raw)' is not a kill policy; accepted: \(accepted) "
                        + "(or unset it to use the configuration file's kill-policy)")
            }
            policy = parsed
        }
        var delay: Duration?
        if let raw = environment[oneTimeDelayVariable], !raw.isEmpty {
            guard let seconds = Double(raw), seconds >= 0, seconds <= 86_400 else {
                throw DaemonError(
                    "\(oneTimeDelayVariable)='\(raw)' is not a number of seconds from 0 to 86400 "
                        + "(or unset it to use the profile's delay)")
            }
            delay = .milliseconds(Int64(seconds * 1000))
        }
        return Self(
            databasePath: database ?? defaultDatabasePath(environment: environment),
            configurationPath: configuration ?? PermissionConfiguration.defaultPath,
            killPolicyOverride: policy, oneTimeDelay: delay)
    }

    /// `$STATE_DIRECTORY/permissions.db` under systemd (the first directory when it lists several),
    /// else `./permissions.db` for a daemon started by hand.
    package static func defaultDatabasePath(environment: [String: String]) -> String {
        let stateDirectory = environment["STATE_DIRECTORY"]?
            .split(separator: ":", omittingEmptySubsequences: true).first.map(String.init)
        guard let stateDirectory else { return "./" + databaseFileName }
        return stateDirectory.hasSuffix("/")
            ? stateDirectory + databaseFileName : stateDirectory + "/" + databaseFileName
    }
}
