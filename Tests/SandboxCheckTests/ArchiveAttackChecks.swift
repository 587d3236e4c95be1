import Foundation
import RelaunchContract
import RelaunchTestSupport
import Systemd
import Testing

/// Attacks on checkin-demo's saved state (issue 20), each watched succeeding on the code before the fix:
///   - an archive whose decoding exhausts memory must not crash the app at every relaunch: the
///     restoring mark is set before decoding, so the next launch discards it (crashed-during-restore);
///   - an archive over the 16 MiB limit is discarded as too-large;
///   - root, playing a scenario, never writes through a link the app's user put in the app's folder.
/// Every check leaves the app running, ready and fresh. (Formerly tests/sandbox/checks/archive-attacks.sh.)
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct ArchiveAttackChecks {
    static let limitDropIn = "/run/systemd/system/checkin-demo.service.d/90-archive-attack-limit.conf"
    static let goDropIn = "/run/systemd/system/checkin-demo.service.d/90-archive-attack-go.conf"
    static let canary = "/var/lib/relaunch-canary"

    /// The app's folder holds `archive` as its archive, owned by the app's user (as if it wrote it).
    private func plant(_ archive: Data) throws {
        let staged = Demo.archive + ".new"
        try archive.write(to: URL(fileURLWithPath: staged))
        try Command.expect(0, ["chown", "relaunch-checkin:", staged])
        try Command.expect(0, ["mv", staged, Demo.archive])
    }

    /// Waits (bounded) for the app to log a discard for `reason` after `mark`.
    private func waitForDiscard(_ reason: String, after mark: Journal.Mark) throws {
        _ = try Journal.entries(
            ["_SYSTEMD_UNIT": Demo.unit, "MESSAGE_ID": Demo.discardedID, "REASON": reason], after: mark, timeout: .seconds(120))
    }

    /// Active, fresh after discarding for `reason`, no start limit hit, in at most 3 restarts since `restartsBefore`.
    private func assertRecovered(_ reason: String, restartsBefore: Int) throws {
        let state = try Demo.state()
        try Assert.equal("discarded", state.value(at: "launch.outcome").jqText, "launch.outcome")
        try Assert.equal(reason, state.value(at: "launch.reason").jqText, "launch.reason")
        try Assert.equal("null", state.value(at: "modal").jqText, "modal after the discard")
        try Assert.equal("active", try Units.property(Demo.unit, "ActiveState"), "ActiveState")
        try Assert.equal("success", try Units.property(Demo.unit, "Result"), "Result (start-limit-hit would end a crash loop)")
        if FileManager.default.fileExists(atPath: Demo.archive) {
            throw CheckFailure("\(Demo.archive) is still there after the discard")
        }
        try Assert.equal("0", try Units.property(Demo.unit, "NFileDescriptorStore"), "fds in the unit's fd store after the discard")
        let restarts = try Units.restarts(Demo.unit) - restartsBefore
        guard restarts <= 3 else { throw CheckFailure("\(restarts) restarts to get over one bad archive") }
        print("note: recovered after \(restarts) restarts")
    }

    /// Memory as a small host has it. With one malloc arena (no 64 MiB reservation per thread), the
    /// address space the app maps once it has run is about what it needs; it gets 64 MiB more.
    /// Decoding the forged archive needs about 300 MiB: it aborts. Before the fix it aborted at every
    /// relaunch (a crash loop, seen); now the mark set before decoding makes the next launch discard
    /// the archive unread.
    @Test func decodeExhaustingMemoryIsDiscardedNotACrashLoop() throws {
        try Demo.restartFresh()
        let note = "attack \(getpid())"
        try Demo.openModal(note)
        try Demo.call("Background")
        try writeFile(Self.limitDropIn, "[Service]\nEnvironment=MALLOC_ARENA_MAX=1\n")
        try Command.expect(0, ["systemctl", "daemon-reload"])
        do {
            // Stopped and the forged archive gone before the limit is lifted.
            defer {
                _ = try? Command.run(["systemctl", "stop", Demo.unit])
                try? FileManager.default.removeItem(atPath: Demo.archive)
                try? FileManager.default.removeItem(atPath: Self.limitDropIn)
                _ = try? Command.run(["systemctl", "daemon-reload"])
                _ = try? Command.run(["systemctl", "reset-failed", Demo.unit])
                _ = try? Command.run(["systemctl", "start", Demo.unit])
            }
            let forged = ForgedArchive.exhaustingMemory(items: 16_700_000)
            try Demo.killAndWait("KILL")
            try Demo.assertRestored(note)
            let pid = try Units.property(Demo.unit, "MainPID")
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let size = status.split(separator: "\n").first { $0.hasPrefix("VmSize:") }?.split(separator: " ").dropFirst().first
            guard let sizeKB = size.flatMap({ Int($0) }) else {
                throw CheckFailure("cannot read the app's VmSize (got '\(size ?? "")')")
            }
            print("note: LimitAS: the app's VmSize \(sizeKB / 1024) MiB + 64 MiB")
            try writeFile(Self.limitDropIn, "[Service]\nEnvironment=MALLOC_ARENA_MAX=1\nLimitAS=\((sizeKB + 64 * 1024) * 1024)\n")
            try Command.expect(0, ["systemctl", "daemon-reload"])
            // The limit takes effect from the next start: with it, a relaunch restores the real archive.
            try Demo.killAndWait("KILL")
            try Demo.assertRestored(note)
            let mark = try Journal.mark()
            let restarts = try Units.restarts(Demo.unit)
            try plant(forged)
            try Command.expect(0, ["systemctl", "kill", "--signal=KILL", Demo.unit])
            try waitForDiscard("crashed-during-restore", after: mark)
            try Demo.waitReady()
            try assertRecovered("crashed-during-restore", restartsBefore: restarts)
            let died = #/^checkin-demo\.service: Main process exited, code=(killed|dumped), status=[0-9]+/(ABRT|TRAP|ILL|SEGV|BUS)/#
            do {
                _ = try Journal.entries(["_PID": "1", "UNIT": Demo.unit], after: mark) {
                    $0.contains { $0.message?.firstMatch(of: died) != nil }
                }
            } catch {
                throw CheckFailure("no instance died decoding the forged archive (did it fit in memory?): \(error)")
            }
        } catch {
            throw CheckFailure("the app did not get over an archive whose decoding exhausts its memory: \(error)")
        }
        try Demo.restartFresh()
    }

    @Test func tooLargeIsDiscarded() throws {
        try Demo.restartFresh()
        defer { _ = try? Command.run(["systemctl", "start", Demo.unit]) }
        try Demo.openModal("too large \(getpid())")
        try Demo.call("Background")
        // A full stop drops the fd store's copy, so the file is the only one (a valid copy would win).
        try Command.expect(0, ["systemctl", "stop", Demo.unit])
        let mark = try Journal.mark()
        try plant(Data(count: 16 * 1024 * 1024 + 1))
        try Command.expect(0, ["systemctl", "start", Demo.unit])
        try waitForDiscard("too-large", after: mark)
        try Demo.waitReady()
        try assertRecovered("too-large", restartsBefore: try Units.restarts(Demo.unit))
        try Demo.restartFresh()
    }

    /// The scenario stops the app and waits (expect unit) for the check to plant the link, then writes
    /// the archive as root (corrupt-archive), which must refuse the link.
    @Test func rootNeverWritesThroughALink() throws {
        try Demo.restartFresh()
        let scratch = try TemporaryDirectory(prefix: "archive-attack")
        let scenario = scratch.file("link.scenario").path
        try """
            # root writes the archive only once the app's user has planted a link in its place
            stop-app
            expect unit Description archive-attack-go
            corrupt-archive

            """.write(toFile: scenario, atomically: true, encoding: .utf8)
        try writeFile(Self.canary, "canary of root \(getpid()), not an archive\n")
        try Command.expect(0, ["chmod", "0644", Self.canary])
        let before = try Command.expect(0, ["sha256sum", Self.canary]).line
        let started = try Units.property(Demo.unit, "ExecMainStartTimestampMonotonic")
        let run = BackgroundCommand(["relaunchctl", "scenario", "run", "--timeout", "30", scenario])
        let planted: Result<Void, any Error>
        let scenarioRun: CommandResult
        let after: String
        do {
            defer {
                _ = try? run.wait()
                try? FileManager.default.removeItem(atPath: Self.goDropIn)
                try? FileManager.default.removeItem(atPath: Demo.archive)
                try? FileManager.default.removeItem(atPath: Self.canary)
                _ = try? Command.run(["systemctl", "daemon-reload"])
                _ = try? Command.run(["systemctl", "start", Demo.unit])
            }
            planted = Result {
                // The scenario restarts the app fresh, then stops it: a new start, and inactive.
                try waitUntil("a new start of \(Demo.unit), then inactive", timeout: .seconds(120)) {
                    let now = try Units.property(Demo.unit, "ExecMainStartTimestampMonotonic")
                    let state = try Units.property(Demo.unit, "ActiveState")
                    return (now != started && state == "inactive", "ExecMainStartTimestampMonotonic \(now) (was \(started)), \(state)")
                }
                // The app's user, who owns its folder, replaces its archive with a link to a file of root's.
                try? FileManager.default.removeItem(atPath: Demo.archive)
                try Command.expect(0, ["ln", "-s", Self.canary, Demo.archive], as: RunAs("relaunch-checkin"))
                try writeFile(Self.goDropIn, "[Unit]\nDescription=archive-attack-go\n")
                try Command.expect(0, ["systemctl", "daemon-reload"])
            }
            scenarioRun = try run.wait()
            after = try Command.expect(0, ["sha256sum", Self.canary]).line
        }
        if case .failure(let error) = planted {
            throw CheckFailure("the scenario did not get to corrupt-archive (\(error)); it said: \(scenarioRun.output)")
        }
        try Assert.equal(before, after,
                         "root's file behind the link, after the scenario's corrupt-archive")
        try Assert.equal("1", String(scenarioRun.status), "exit status of the scenario (corrupt-archive must refuse the link)")
        try Assert.contains(scenarioRun.output, "is a symbolic link", "the scenario's output")
        try Demo.restartFresh()
    }
}
