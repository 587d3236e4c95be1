#if canImport(Glibc)
import Glibc
#endif

/// What systemd says about a unit right now, read with `systemctl show`.
struct UnitState {
    var activeState: String
    var subState: String
    var invocationID: String
    var mainPID: String
    var restarts: String

    /// Reads the unit's properties.
    static func read(_ unit: String) throws(CLIError) -> UnitState {
        let result = try Subprocess.run([
            "systemctl", "show", "-p", "ActiveState", "-p", "SubState", "-p", "InvocationID",
            "-p", "MainPID", "-p", "NRestarts", unit,
        ])
        guard result.status == 0 else {
            throw CLIError(.unavailable, "cannot ask systemd about \(unit) (systemctl exited \(result.status)); "
                + "is systemd running here? In the sandbox, use scripts/sandbox exec -- relaunchctl ...")
        }
        var values: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return UnitState(
            activeState: values["ActiveState"] ?? "",
            subState: values["SubState"] ?? "",
            invocationID: values["InvocationID"] ?? "",
            mainPID: values["MainPID"] ?? "0",
            restarts: values["NRestarts"] ?? "0"
        )
    }

    /// Whether `pid` names a live process (not a zombie waiting to be reaped).
    static func isAlive(pid: String) -> Bool {
        guard let number = Int32(pid), number > 0 else { return false }
        guard let file = fopen("/proc/\(number)/stat", "r") else { return false }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return false }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The state letter follows the ")" that closes the command name.
        guard let close = line.lastIndex(of: ")") else { return false }
        let state = line[line.index(after: close)...].drop { $0 == " " }.first
        return state != "Z" && state != "X"
    }
}

/// Counts journal entries with `journalctl`, for scenario expectations.
enum JournalQuery {
    /// How many entries since `sinceUSec` match every FIELD=VALUE in `matches`.
    static func count(matches: [String], sinceUSec: UInt64) throws(CLIError) -> Int {
        let since = "@\(sinceUSec / 1_000_000).\(String(sinceUSec % 1_000_000).leftPadded(6))"
        let result = try Subprocess.run(["journalctl", "--no-pager", "-q", "-o", "cat", "--output-fields=MESSAGE_ID",
                                         "--since", since] + matches)
        guard result.status == 0 else { throw .failed("journalctl exited \(result.status)") }
        return result.output.split(separator: "\n").count
    }
}

extension String {
    func leftPadded(_ width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }

    /// The string without leading and trailing blanks and newlines.
    var trimmed: String {
        let blanks: Set<Character> = [" ", "\t", "\n", "\r"]
        return String(drop { blanks.contains($0) }.reversed().drop { blanks.contains($0) }.reversed())
    }
}
