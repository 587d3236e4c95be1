#if canImport(Glibc)
import Glibc
#endif

/// What checkin-demo is started with: its build number, where its state lives, who it is.
struct DemoConfiguration: Sendable {
    /// The build compiled in; `CHECKIN_DEMO_BUILD` overrides it (the "archive from another build" scenario).
    static let compiledBuildNumber = "1"
    /// The state directory when neither `$STATE_DIRECTORY` nor `--state-directory` names one.
    static let fallbackStateDirectory = "./.checkin-demo-state"

    /// The running build; archives saved by another build are discarded.
    var buildNumber: String
    /// Where the archive, the restoring mark and the invocation record live.
    var stateDirectory: String
    /// This instance's `$INVOCATION_ID` (nil when not started by systemd).
    var invocationID: String?
    /// Whether `TestHook` may be called (`RELAUNCH_TEST_HOOKS=1`, set only by the sandbox's drop-in).
    var testHooksEnabled: Bool

    /// Reads the command line and the environment.
    ///
    /// - Throws: ``DemoError`` for an unknown option or a state directory that cannot be created.
    /// - Returns: nil when `--help` was asked for (the usage is printed).
    static func load(arguments: [String]) throws(DemoError) -> DemoConfiguration? {
        var stateDirectory = environment("STATE_DIRECTORY").map { firstPath($0) }
        var rest = arguments.dropFirst()[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--state-directory":
                guard let value = rest.popFirst(), !value.isEmpty else {
                    throw DemoError(.usage, "--state-directory needs a directory; try --help")
                }
                stateDirectory = value
            case "-h", "--help":
                print(usage)
                return nil
            default:
                throw DemoError(.usage, "unknown argument '\(argument)'; try --help")
            }
        }
        let directory = stateDirectory ?? fallbackStateDirectory
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw DemoError(.stateDirectory, "could not create the state directory \(directory): "
                + "\(String(cString: strerror(errno))); pass --state-directory DIR or run it under systemd (StateDirectory=)")
        }
        return DemoConfiguration(
            buildNumber: environment("CHECKIN_DEMO_BUILD") ?? compiledBuildNumber,
            stateDirectory: directory,
            invocationID: environment("INVOCATION_ID"),
            testHooksEnabled: environment("RELAUNCH_TEST_HOOKS") == "1")
    }

    static let usage = """
        Usage: checkin-demo [--state-directory DIR] [--help]

        The Relaunch check-in demo app, meant to run as checkin-demo.service (Type=notify). It restores
        its saved state at launch, says READY=1, then serves org.relaunch.CheckInDemo1 on the system bus.
          --state-directory DIR  where the restoration archive lives (default: $STATE_DIRECTORY,
                                 else \(fallbackStateDirectory))
        Environment: CHECKIN_DEMO_BUILD (build number, default \(compiledBuildNumber)), RELAUNCH_TEST_HOOKS=1
        (allow TestHook), STATE_DIRECTORY, INVOCATION_ID, WATCHDOG_USEC, LISTEN_FDS (set by systemd).
        """

    /// `$STATE_DIRECTORY` may list several directories separated by `:`; the first is ours.
    private static func firstPath(_ list: String) -> String {
        list.split(separator: ":").first.map(String.init) ?? list
    }

    /// The value of an environment variable, nil when unset or empty.
    static func environment(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        let value = String(cString: raw)
        return value.isEmpty ? nil : value
    }
}
