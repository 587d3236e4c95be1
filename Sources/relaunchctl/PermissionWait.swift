import ArgumentParser
import RelaunchContract
import RelaunchDriver
import RelaunchctlCore

/// `--wait` and `--timeout` of `permission set` and `permission reset`: wait for the relaunch a
/// change causes, through RelaunchDriver's AppLink, as RelaunchTesting waits (the unit's properties and the app's bus name, not polling).
struct RelaunchWaitOptions: ParsableArguments {
    @Flag(help: "When the change kills the app, wait until it is back and print how it came back.")
    var wait = false

    @Option(help: "With --wait: how many seconds the relaunch may take.")
    var timeout: Double = 30

    func validate() throws {
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be between 0 and 3600 seconds") }
    }

    /// Attaches to `app` and runs `body` on it, with failures as the contract's exit codes.
    func run<T>(
        _ app: String, _ body: (AppLink) async throws(RelaunchTestingError) -> T
    ) async throws(CLIError) -> T {
        do {
            let link = try await AppLink.attach(app, timeout: .milliseconds(Int64(timeout * 1000)))
            return try await body(link)
        } catch {
            throw CLIError(Self.code(error.code), error.message)
        }
    }

    private static func code(_ code: RelaunchTestingError.Code) -> CLIError.Code {
        switch code {
        case .unknownApp: .usage
        case .unreachable: .unavailable
        case .notAuthorized: .notAuthorized
        default: .failed
        }
    }
}

/// How `permission set --wait` says what a change did.
enum PermissionChangeText {
    /// A change that did not kill: whether the profile has the app see it in place, and whether
    /// the profile wanted a kill that did not happen (the app was not running).
    static func notKilled(_ change: PermissionChange) -> String {
        switch change.expected {
        case .notified: " (app not killed; it sees the change in place)"
        case .nothing: " (app not killed)"
        case .kill: " (app not killed: it was not running)"
        }
    }

    /// A change that killed: who brought the app back, when `--wait` saw it (its standby, or systemd).
    static func killed(_ change: PermissionChange) -> String {
        change.relaunch?.tookOver == true ? " (app killed; its standby took over)" : " (app killed; systemd relaunched it)"
    }

    static func text(_ change: PermissionChange) -> String {
        let states = Permission.allCases.compactMap { permission in
            change.previous[permission].map { "\(permission.rawValue): \($0) → \(change.new)" }
        }
        var lines = ["\(change.app) " + (states.isEmpty ? "no permission: nothing to reset" : states.joined(separator: ", "))
            + (change.wasKilled ? killed(change) : change.changedAnything ? notKilled(change) : " (unchanged)")]
        guard let relaunch = change.relaunch else { return inert(lines[0]) }
        let how = relaunch.outcome.rawValue + (relaunch.discardReason.map { " (\($0))" } ?? "")
        let time = relaunch.exitToReady.map { " in " + milliseconds($0) + " (exit → READY)" } ?? ""
        lines.append("relaunched: \(how)\(time), instance \(relaunch.invocationID)")
        for path in relaunch.restoredVia.keys.sorted() {
            lines.append("  \(path)  \(relaunch.restoredVia[path]!)")
        }
        // The app, the discard reason and the restored paths come from the app: each line escaped.
        return lines.map(inert).joined(separator: "\n")
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let tenths = Int((Double(duration / .microseconds(1)) / 100).rounded())
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}
