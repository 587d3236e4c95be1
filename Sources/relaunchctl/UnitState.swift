import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// What systemd says about a unit right now, from its D-Bus API (the Systemd layer's `unitStatus`).
struct UnitState {
    var invocationID: String
    var mainPID: String

    /// Reads the unit's properties; a unit systemd has not loaded reads as not running.
    static func read(_ unit: String) throws(CLIError) -> UnitState {
        let manager = SystemdManager(connection: try systemBus())
        do {
            guard let status = try manager.unitStatus(unit) else { return UnitState(invocationID: "", mainPID: "0") }
            return UnitState(invocationID: status.invocationID, mainPID: String(status.mainPID))
        } catch {
            throw cliError(error, talkingTo: "systemd", hint: "is systemd running here? In the sandbox, use scripts/sandbox exec -- relaunchctl ...")
        }
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
