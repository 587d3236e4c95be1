package import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// What systemd says about a unit right now, from its D-Bus API (the Systemd layer's `unitStatus`).
package struct UnitState {
    package var invocationID: String
    package var mainPID: String

    /// Reads the unit's properties; a unit systemd has not loaded reads as not running.
    package static func read(_ unit: String) throws(CLIError) -> UnitState {
        let manager = SystemdManager(connection: try systemBus())
        do {
            guard let status = try manager.unitStatus(unit) else { return UnitState(invocationID: "", mainPID: "0") }
            return UnitState(invocationID: status.invocationID, mainPID: String(status.mainPID))
        } catch {
            throw cliError(error, talkingTo: "systemd", hint: "is systemd running here? In the sandbox, use scripts/sandbox exec -- relaunchctl ...")
        }
    }

    /// Whether `pid` names a live process (not a zombie waiting to be reaped).
    package static func isAlive(pid: String) -> Bool {
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

/// Counts journal entries through sd-journal (the Systemd layer), for scenario expectations.
package enum JournalQuery {
    /// How many entries since `sinceUSec` match every FIELD=VALUE in `matches`.
    package static func count(matches: [String], sinceUSec: UInt64) throws(CLIError) -> Int {
        do throws(SystemdError) {
            let reader = try JournalReader(flags: [.localOnly])
            for match in matches {
                guard let equals = match.firstIndex(of: "=") else { continue }
                try reader.addMatch(String(match[..<equals]), String(match[match.index(after: equals)...]))
            }
            try reader.seek(realtimeMicroseconds: sinceUSec)
            var count = 0
            while try reader.next() { count += 1 }
            return count
        } catch {
            throw .failed("cannot read the journal: \(error)")
        }
    }
}

/// CLOCK_REALTIME in microseconds since the Unix epoch.
package func realtimeMicroseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec / 1000)
}
