import Foundation

/// A command a check leaves running while it does other things (a flood of calls, a prompt nobody
/// answers), run as a transient systemd service of its own (`systemd-run`): stopping it ends every
/// process it started, whatever they forked or however the check ended, and `RuntimeMaxSec=` ends it
/// even when nobody stops it. Start it, then `defer { service.stop() }`.
public final class BackgroundService: Sendable {
    /// The transient unit, `NAME.service`.
    public let unit: String
    /// Where its stdout and stderr go, together (as bash's `>FILE 2>&1`).
    public let output: String

    /// Starts `argv` (found on PATH, as `user` when given) in the transient unit `NAME.service`, its
    /// output to `output`; returns once systemd started it. A unit of that name left from before is
    /// stopped first. `bound`: systemd stops it after that long, whatever happens.
    public init(_ name: String, _ argv: [String], as user: RunAs? = nil, output: String, bound: Duration) throws {
        unit = "\(name).service"
        self.output = output
        Self.remove(unit)
        try Command.expect(0, [
            "systemd-run", "--quiet", "--collect", "--unit=\(unit)", "-p", "DefaultDependencies=no",
            "-p", "RuntimeMaxSec=\(Int(bound.timeInterval.rounded(.up)))",
            "-p", "StandardOutput=truncate:\(output)", "-p", "StandardError=inherit", "-p", "StandardInput=null",
        ] + (user?.prefix ?? []) + argv)
    }

    /// True while the unit still runs.
    public var isRunning: Bool {
        let state = (try? Command.run(["systemctl", "is-active", unit]).line) ?? ""
        return state == "active" || state == "activating" || state == "deactivating"
    }

    /// What it wrote so far.
    public var said: String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

    /// Stops it (SIGTERM to every process of the unit, SIGKILL when they outlast systemd's stop
    /// timeout) and returns once they are gone. Safe to call more than once, and from a `defer`.
    public func stop() { Self.remove(unit) }

    deinit { Self.remove(unit) }

    private static func remove(_ unit: String) {
        _ = try? Command.run(["systemctl", "stop", unit], timeout: .seconds(120))
        _ = try? Command.run(["systemctl", "reset-failed", unit], timeout: .seconds(30))
    }
}
