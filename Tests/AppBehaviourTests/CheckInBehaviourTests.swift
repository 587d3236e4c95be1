import Foundation
import RelaunchDriver
import RelaunchTestSupport
@testable import RelaunchTesting
import Systemd
import Testing

/// checkin-demo under its real unit: READY only once restored, SIGKILL, watchdog and crash
/// relaunches, the fd-store copy, another build's archive. (Formerly tests/sandbox/checks/checkin-demo.sh.)
@Suite(.serialized, .enabled(if: Sandbox.isInside, Sandbox.reason))
struct CheckInBehaviourTests {
    static let archive = "/var/lib/checkin-demo/restoration.archive"
    static let modal = "TabViewController/CheckInViewController/CheckInModalNavigationController"

    /// Attached to checkin-demo after a force quit and a start: nothing saved, nothing open.
    private func freshApp() async throws -> TestedApp {
        let app = try await TestedApp.attach("checkin-demo", timeout: .seconds(60))
        try await app.quit(force: true)
        try await app.launch()
        return app
    }

    private func openModal(_ app: TestedApp, note: String) async throws {
        try await app.tap("tab:check-in")
        try await app.tap("check-in")
        try await app.type("3", into: "party-size")
        try await app.type(note, into: "note")
        #expect(try await app.state().value(at: "modal.note")?.string == note)
    }

    private func expectRestored(_ back: Relaunch, note: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(back.outcome == .restored, "launch.outcome", sourceLocation: sourceLocation)
        let state = try #require(back.state, sourceLocation: sourceLocation)
        #expect(state.value(at: "modal.note")?.string == note, "modal.note after the relaunch", sourceLocation: sourceLocation)
        #expect(state.value(at: "modal.partySize")?.int == 3, sourceLocation: sourceLocation)
        #expect(state.presented == Self.modal, sourceLocation: sourceLocation)
        #expect(back.restoredVia[Self.modal] == .appDelegate, sourceLocation: sourceLocation)
        #expect(state.lifecycle == .active, sourceLocation: sourceLocation)
    }

    @Test func reachesReadyAndServes() async throws {
        let app = try await TestedApp.attach("checkin-demo", timeout: .seconds(60))
        #expect(try await !app.serviceProperty("StatusText").text.isEmpty, "READY=1 came without STATUS=")
        #expect(try await app.screen().contains("build 1"))
        #expect(try await app.state().lifecycle == .active)
        #expect(try await app.serviceProperty("WatchdogUSec").number != 0, "the unit has no watchdog")
    }

    @Test func sigkillInTheBackgroundRestoresTheModal() async throws {
        let app = try await freshApp()
        let note = "Table by the window, \(getpid())"
        try await openModal(app, note: note)
        try await app.background()
        #expect(try await app.state().lifecycle == .background)
        #expect(FileManager.default.fileExists(atPath: Self.archive), "no archive after going to the background")
        #expect(try await app.serviceProperty("NFileDescriptorStore").number == 1, "fds in the unit's fd store")
        let back = try await app.kill()
        try expectRestored(back, note: note)
        #expect(try await app.serviceProperty("StatusText").text.contains("restored"))
        let exits = try Journal.entries(["_PID": "1", "UNIT": app.unit]) {
            $0.contains { $0.message?.contains("status=9/KILL") == true }
        }
        #expect(exits.contains { $0.message?.contains("status=9/KILL") == true })
    }

    /// DURATION_USEC of `entry` is at least 1 µs and no longer than from `since` (CLOCK_MONOTONIC µs)
    /// to the entry's own monotonic time: the instance's life up to the entry.
    private func expectDuration(_ entry: JournalEntry?, since: UInt64, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let duration = entry?["DURATION_USEC"].flatMap(UInt64.init)
        let at = entry?.monotonicMicroseconds ?? 0
        #expect(duration.map { $0 >= 1 && at > since && $0 <= at - since } == true,
                "\(what): DURATION_USEC \(duration.map(String.init) ?? "missing") is not within 1...\(at &- since) µs",
                sourceLocation: sourceLocation)
    }

    @Test func journalEventsCarryTheContractsFields() async throws {
        let app = try await freshApp()
        let oldInvocation = try await app.watch.snapshot().invocationID
        try await openModal(app, note: "journal \(getpid())")
        try await app.background()
        let back = try await app.kill()
        // The killed instance: lifecycle changed, then state preserved.
        let lifecycle = try Journal.entries(["_SYSTEMD_INVOCATION_ID": oldInvocation, "MESSAGE_ID": "7cff30b26abb44549eb0f7570b7c2ef9"]) {
            $0.last?["LIFECYCLE"] == "background"
        }
        #expect(lifecycle.last?["LIFECYCLE"] == "background")
        let preserved = try Journal.entries(["_SYSTEMD_INVOCATION_ID": oldInvocation, "MESSAGE_ID": "21ad727465684cd29e7b9bc1c3d456a7"]).last
        #expect(preserved?["ARCHIVE_BYTES"].flatMap(Int.init).map { $0 > 0 } == true)
        #expect(preserved?["ARCHIVE_GENERATION"].flatMap(Int.init).map { $0 >= 1 } == true)
        #expect(preserved?["SYSLOG_IDENTIFIER"] == "checkin-demo")
        let born = try Journal.entries(["_SYSTEMD_INVOCATION_ID": oldInvocation]).first?.monotonicMicroseconds ?? 0
        expectDuration(preserved, since: born, "state preserved")
        // The relaunched instance: every restored controller, parents first, then restoration
        // finished, then app launched.
        let restored = try Journal.entries(["_SYSTEMD_INVOCATION_ID": back.invocationID, "MESSAGE_ID": "48683d587f3b40cbb9f326d7ea1ba7ea"]) {
            $0.count >= back.restoredVia.count
        }
        #expect(restored.first?["RESTORATION_PATH"] == "TabViewController")
        #expect(restored.first { $0["RESTORATION_PATH"] == Self.modal }?["RESTORED_VIA"] == "appDelegate")
        let finished = try Journal.entries(["_SYSTEMD_INVOCATION_ID": back.invocationID, "MESSAGE_ID": "0c0151517edf47b1a988576b4b5e81e0"]).last
        #expect(finished?["RESTORED_COUNT"] == String(restored.count), "RESTORED_COUNT vs. 'view controller restored' entries")
        #expect(finished?["PRESENTED_PATH"] == Self.modal)
        let started = try await app.serviceProperty("ExecMainStartTimestampMonotonic").number ?? 0
        expectDuration(finished, since: started, "restoration finished")
        let launched = try Journal.entries(["_SYSTEMD_INVOCATION_ID": back.invocationID, "MESSAGE_ID": "0c3ece682843457296ab0da296a09171"]).last
        #expect(launched?["LAUNCH_OUTCOME"] == "restored")
        #expect(launched?["BUILD_NUMBER"] == "1")
        #expect(launched?["SYSLOG_IDENTIFIER"] == "checkin-demo")
    }

    @Test func theFdStoreCopyRestoresWithoutTheFile() async throws {
        let app = try await freshApp()
        let note = "only in the fd store \(getpid())"
        try await openModal(app, note: note)
        try await app.background()
        #expect(try await app.serviceProperty("NFileDescriptorStore").number == 1)
        try FileManager.default.removeItem(atPath: Self.archive)
        let back = try await app.kill()
        try expectRestored(back, note: note)
        let finished = try Journal.entries([
            "_SYSTEMD_INVOCATION_ID": back.invocationID, "MESSAGE_ID": "0c0151517edf47b1a988576b4b5e81e0",
        ])
        #expect(finished.last?["ARCHIVE_SOURCE"] == "fdstore", "ARCHIVE_SOURCE of restoration finished")
    }

    @Test func aWatchdogHangIsAbortedAndRestored() async throws {
        let app = try await freshApp()
        let note = "hung \(getpid())"
        try await openModal(app, note: note)
        try await app.background()
        // The hook deadlocks the bus loop itself (the thread that pings the watchdog), so the call
        // gets no answer; systemd aborts the process (WatchdogSec=5s) and relaunches it.
        let back = try await app.afterTestHook("hang")
        try expectRestored(back.relaunch, note: note)
        let hung = try Journal.entries(["UNIT": app.unit, "INVOCATION_ID": back.oldInvocation]) {
            $0.contains { $0.message?.contains("status=6/ABRT") == true }
        }
        let log = hung.compactMap(\.message).joined(separator: "\n")
        #expect(log.contains("Watchdog timeout"))
        #expect(log.contains("status=6/ABRT"))
        #expect(hung.last { $0["UNIT_RESULT"] != nil }?["UNIT_RESULT"] == "watchdog")
    }

    @Test func aCrashDuringRestoreDiscardsTheNextTime() async throws {
        let app = try await freshApp()
        try await openModal(app, note: "crash \(getpid())")
        try await app.testHook("crash-next-restore")
        try await app.background()
        // The next instance aborts while restoring (READY never comes); the one after discards.
        let back = try await app.kill()
        #expect(back.outcome == .discarded)
        #expect(back.discardReason == .crashedDuringRestore)
        #expect(back.state?["modal"] == .null)
        #expect(!FileManager.default.fileExists(atPath: Self.archive), "the archive is still there after the discard")
        #expect(try await app.serviceProperty("NFileDescriptorStore").number == 0, "fds in the fd store after the discard")
    }

    @Test func anArchiveFromAnotherBuildIsDiscarded() async throws {
        let app = try await freshApp()
        try await openModal(app, note: "old build \(getpid())")
        try await app.background()
        try await app.setManagerEnvironment("CHECKIN_DEMO_BUILD=2")
        let back: Relaunch
        do {
            back = try await app.kill()
        } catch {
            try await app.unsetManagerEnvironment("CHECKIN_DEMO_BUILD")
            throw error
        }
        try await app.unsetManagerEnvironment("CHECKIN_DEMO_BUILD")
        #expect(back.outcome == .discarded)
        #expect(back.discardReason == .buildMismatch)
        #expect(back.state?["buildNumber"]?.string == "2")
        try await app.quit(force: true)
        #expect(try await app.launch().state?["buildNumber"]?.string == "1")
    }
}
