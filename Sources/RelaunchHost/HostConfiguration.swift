internal import RelaunchContract

#if canImport(Glibc)
import Glibc
#endif

/// Who an app is, as its executable tells the host library: the program name, the build compiled
/// in, the variable that overrides it, the default app id and bus name, and one line for `--help`.
public struct AppIdentity: Sendable {
    /// The executable's name (SYSLOG_IDENTIFIER, messages), e.g. `checkin-demo`.
    public var program: String
    /// One line saying what the app is, for `--help`.
    public var summary: String
    /// The build compiled in.
    public var build: String
    /// The environment variable that overrides the build (the "archive from another build" scenario).
    public var buildVariable: String
    /// The app id when `$RELAUNCH_APP_ID` is unset.
    public var defaultAppID: String
    /// Where it serves org.relaunch.App1 when `$RELAUNCH_BUS_NAME` is unset.
    public var defaultBusName: String

    /// Describes an app.
    public init(
        program: String, summary: String, build: String, buildVariable: String, defaultAppID: String,
        defaultBusName: String
    ) {
        self.program = program
        self.summary = summary
        self.build = build
        self.buildVariable = buildVariable
        self.defaultAppID = defaultAppID
        self.defaultBusName = defaultBusName
    }
}

/// What a hosted app is started with: its build number, where its state lives, who it is.
struct HostConfiguration: Sendable {
    /// The app's identity.
    var identity: AppIdentity
    /// The running build; the app delegate judges archives saved by another.
    var buildNumber: String
    /// Where the archive, the restoring mark and the invocation record live.
    var stateDirectory: String
    /// This instance's `$INVOCATION_ID` (nil when not started by systemd).
    var invocationID: String?
    /// Whether `TestHook` may be called (`RELAUNCH_TEST_HOOKS=1`, set only by the sandbox's drop-in).
    var testHooksEnabled: Bool
    /// The app id permissiond knows it by: `$RELAUNCH_APP_ID`, else the identity's default.
    var appID: String
    /// Where it serves org.relaunch.App1: `$RELAUNCH_BUS_NAME`, else the identity's default.
    var busName: String
    /// Whether this process is the standby (``Standby/argument``): it waits to take over, reading nothing.
    var isStandby = false
    /// Whether the app keeps a standby (`RELAUNCH_STANDBY=1`, with the unit settings it needs).
    var keepsStandby = false

    /// Reads the command line and the environment.
    ///
    /// - Parameter environment: an environment variable's value, nil when unset or empty (the
    ///   process's own, ``environment(_:)``, unless a test gives one).
    /// - Throws: ``HostError`` for an unknown option or a state directory that cannot be created.
    /// - Returns: nil when `--help` was asked for (the usage is printed).
    static func load(
        arguments: [String], identity: AppIdentity, environment: (String) -> String? = HostConfiguration.environment
    ) throws(HostError) -> HostConfiguration? {
        var stateDirectory = environment("STATE_DIRECTORY").map { firstPath($0) }
        var rest = arguments.dropFirst()[...]
        var isStandby = false
        while let argument = rest.popFirst() {
            switch argument {
            case "--state-directory":
                guard let value = rest.popFirst(), !value.isEmpty else {
                    throw HostError(.usage, "--state-directory needs a directory; try --help")
                }
                stateDirectory = value
            case Standby.argument:
                isStandby = true
            case "-h", "--help":
                print(usage(identity))
                return nil
            default:
                throw HostError(.usage, "unknown argument \(Echo.quoted(argument)); try --help")
            }
        }
        let directory = stateDirectory ?? "./.\(identity.program)-state"
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw HostError(.stateDirectory, "could not create the state directory \(directory): "
                + "\(String(cString: strerror(errno))); pass --state-directory DIR or run it under systemd (StateDirectory=)")
        }
        return HostConfiguration(
            identity: identity,
            buildNumber: environment("RELAUNCH_BUILD") ?? environment(identity.buildVariable) ?? identity.build,
            stateDirectory: directory,
            invocationID: environment("INVOCATION_ID"),
            testHooksEnabled: environment("RELAUNCH_TEST_HOOKS") == "1",
            appID: environment("RELAUNCH_APP_ID") ?? identity.defaultAppID,
            busName: environment("RELAUNCH_BUS_NAME") ?? identity.defaultBusName,
            isStandby: isStandby,
            keepsStandby: keepsStandby(environment))
    }

    static func usage(_ identity: AppIdentity) -> String {
        """
        Usage: \(identity.program) [--state-directory DIR] [--help]

        \(identity.summary) Meant to run as \(identity.program).service (Type=notify): it restores
        its saved state at launch, says READY=1, then serves org.relaunch.App1 on the system bus.
          --state-directory DIR  where the restoration archive lives (default: $STATE_DIRECTORY,
                                 else ./.\(identity.program)-state)
        Environment: RELAUNCH_BUILD or \(identity.buildVariable) (build number, default \(identity.build)),
        RELAUNCH_APP_ID (app id, default \(identity.defaultAppID)), RELAUNCH_BUS_NAME (default
        \(identity.defaultBusName)), RELAUNCH_TEST_HOOKS=1 (allow TestHook), RELAUNCH_STANDBY=1 (keep a standby process that
        takes over after a SIGKILL; the unit needs systemd/standby/standby.conf), and from systemd
        STATE_DIRECTORY, INVOCATION_ID, WATCHDOG_USEC, LISTEN_FDS.
        """
    }

    /// `$STATE_DIRECTORY` may list several directories separated by `:`; the first is ours.
    private static func firstPath(_ list: String) -> String {
        list.split(separator: ":").first.map(String.init) ?? list
    }

    /// The value of an environment variable, nil when unset or empty.
    /// Whether the app keeps a standby: `RELAUNCH_STANDBY=1`.
    static func keepsStandby(_ environment: (String) -> String? = HostConfiguration.environment) -> Bool {
        environment(Standby.variable) == "1"
    }

    static func environment(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        let value = String(cString: raw)
        return value.isEmpty ? nil : value
    }
}
