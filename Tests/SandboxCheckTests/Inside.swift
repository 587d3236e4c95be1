import Foundation
import RelaunchTestSupport
import Testing

/// These suites check permissiond, the units and the apps of a running sandbox from inside it:
/// `tests/sandbox/run` runs them there with RELAUNCH_SANDBOX_CHECKS=1, after its bash checks and in
/// the same sandbox (`scripts/sandbox exec -- swift test --filter SandboxCheckTests`). Elsewhere they
/// are disabled, and scripts/test's plain `swift test` skips the target.
enum Inside {
    static let sandbox = ProcessInfo.processInfo.environment["RELAUNCH_SANDBOX_CHECKS"] == "1"
    static let reason: Comment = "checks a running sandbox; tests/sandbox/run runs it inside with RELAUNCH_SANDBOX_CHECKS=1"
}

/// Bus names and paths the checks call.
enum Bus {
    static let permissions = ["org.relaunch.Permissions1", "/org/relaunch/Permissions1", "org.relaunch.Permissions1"]
    static let checkIn = ["org.relaunch.CheckInDemo1", "/org/relaunch/App1", "org.relaunch.App1"]

    /// `dbus-send --system --print-reply` to METHOD of `object` (which prints the D-Bus error's name,
    /// where busctl prints only the errno's text).
    static func send(_ object: [String], _ method: String, _ arguments: String...) -> [String] {
        send(object, method, arguments)
    }

    /// The same, with the `type:value` arguments in an array.
    static func send(_ object: [String], _ method: String, _ arguments: [String]) -> [String] {
        ["dbus-send", "--system", "--print-reply", "--dest=\(object[0])", object[1], "\(object[2]).\(method)"] + arguments
    }

    /// `busctl call` of METHOD of `object` with SIGNATURE and arguments.
    static func call(_ object: [String], _ method: String, _ arguments: String...) -> [String] {
        ["busctl", "call", object[0], object[1], object[2], method] + arguments
    }
}

/// Refusals, told apart by who refused.
enum Refusal {
    /// dbus-daemon itself refused the message (its policy), before any service saw it.
    static func byBusPolicy(_ result: CommandResult, _ what: String) throws {
        guard result.output.contains("Rejected send message") else {
            throw CheckFailure("\(what) was not refused by the bus policy (dbus-daemon says 'Rejected send message'); it said: \(result.output)")
        }
    }

    /// The call got through the bus policy and the service refused it itself, after asking polkit (its
    /// message says polkit did not authorize the caller, not that polkit could not be asked).
    static func byService(_ result: CommandResult, _ what: String) throws {
        let said = result.output
        if said.contains("Rejected send message") { throw CheckFailure("\(what) was refused by the bus policy, not by the service: \(said)") }
        if said.contains("could not be asked") { throw CheckFailure("\(what) was refused because polkit did not answer: \(said)") }
        guard said.contains("not authorized for ") else {
            throw CheckFailure("\(what) was not refused by the service after asking polkit; it said: \(said)")
        }
    }
}

/// polkit.service is active and owns org.freedesktop.PolicyKit1, so a refusal that says polkit
/// answered was polkit's. Returns what it saw when it is not.
func polkitIsDown() throws -> String? {
    let state = try Command.run(["systemctl", "is-active", "polkit.service"]).line
    let owner = try Command.run(["busctl", "status", "--no-pager", "org.freedesktop.PolicyKit1"]).stdout
        .split(separator: "\n").first { $0.hasPrefix("PID=") }.map { String($0.dropFirst(4)) }
    if state == "active", owner != nil { return nil }
    return "polkit.service is \(state); org.freedesktop.PolicyKit1 owned by PID \(owner ?? "nobody")"
}
