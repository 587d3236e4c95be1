import RelaunchBus
import RelaunchContract
import RelaunchctlCore
import ScenarioKit
import Testing

/// `expect kill` and `expect no-kill` as the runner judges them from permissiond's last-kill record
/// and the unit's instance, before and after a permission step.
@Suite("Kill expectations")
struct KillJudgementTests {
    let before = BeforeChange(invocation: "inv-1", mainPID: "4242", lastKillUSec: 1_000)

    func kill(of invocation: String, at microseconds: UInt64, for permission: String = "camera") -> LastKill {
        LastKill(invocationID: invocation, permission: permission, old: "allowed", new: "denied", realtimeMicroseconds: microseconds)
    }

    @Test("expect kill passes when permissiond killed the instance that ran, after the change")
    func killed() throws {
        try before.checkKill(kill(of: "inv-1", at: 2_000))
        try BeforeChange(invocation: "inv-1", mainPID: "4242", lastKillUSec: 0).checkKill(kill(of: "inv-1", at: 2_000))
    }

    @Test("expect kill fails when permissiond recorded no kill for the change", arguments: [nil, 1_000] as [UInt64?])
    func notKilled(lastKillAt microseconds: UInt64?) {
        let error = #expect(throws: CLIError.self) { try before.checkKill(microseconds.map { kill(of: "inv-1", at: $0) }) }
        #expect(error?.message == "expected a kill, but permissiond recorded none for this change")
    }

    @Test("expect kill fails when permissiond killed another instance than the one that ran")
    func killedAnother() {
        let error = #expect(throws: CLIError.self) { try before.checkKill(kill(of: "inv-0", at: 2_000)) }
        #expect(error?.message == "permissiond killed invocation inv-0, the app ran inv-1")
    }

    @Test("expect no-kill passes when no new kill was recorded and the same process runs on")
    func notKilledAndRunning() throws {
        var asked: [String] = []
        for lastKill in [nil, kill(of: "inv-0", at: 1_000)] {
            try before.checkNoKill(lastKill, invocationID: "inv-1", mainPID: "4242") { pid in
                asked.append(pid)
                return true
            }
        }
        #expect(asked == ["4242", "4242"])
    }

    @Test("expect no-kill fails on a new kill, naming its permission")
    func killedAfterAll() {
        let error = #expect(throws: CLIError.self) {
            try before.checkNoKill(kill(of: "inv-1", at: 3_000, for: "microphone"), invocationID: "inv-1", mainPID: "4242") { _ in true }
        }
        #expect(error?.message == "expected no kill, but permissiond killed the app for microphone")
    }

    @Test("expect no-kill fails when the instance changed or its process is gone", arguments: [
        ("inv-2", "4242", true), ("inv-1", "5151", true), ("inv-1", "4242", false),
    ])
    func instanceChanged(invocation: String, pid: String, alive: Bool) {
        let error = #expect(throws: CLIError.self) {
            try before.checkNoKill(nil, invocationID: invocation, mainPID: pid) { _ in alive }
        }
        #expect(error?.message == "expected the same instance to run, but it changed (pid 4242 → \(pid))")
    }

    @Test("expect kill then waits for permissiond's kill entry and systemd's exit entry of the killed instance")
    func killEntries() {
        let entries = before.killEntries(unit: "checkin-demo.service")
        #expect(entries.map(\.event) == [.appKilled, .unitExited])
        #expect(entries.map(\.fields) == [
            ["UNIT": "checkin-demo.service", "SIGNAL": "KILL"],
            ["UNIT": "checkin-demo.service", "EXIT_STATUS": "9", "INVOCATION_ID": "inv-1"],
        ])
    }
}

/// Which journal entries an expectation may count: those since the run of acting steps it follows.
@Suite("Expectation spans")
struct ExpectationSpanTests {
    @Test("the first step that acts after an expectation, or at the start, takes a new journal cursor")
    func cursors() {
        let steps: [Step] = [
            .waitReady, .setPermission(.camera, .denied), .tap("check-in"), .expectKill,
            .screen, .expectJournal(.appKilled, fields: [:], present: true), .background,
            .expectState(path: "a", value: "b"), .expectUnit(property: "ActiveState", value: "active"),
            .expectNoKill, .repeat(2, .killApp), .waitReady, .foreground, .repeat(1, .expectKill), .inScene(1, .tap("x")),
        ]
        var span = ExpectationSpan()
        let taken = steps.indices.filter { span.takesCursor(before: steps[$0]) }
        #expect(taken == [1, 6, 10, 14])
    }

    @Test("expectations are what check; they do not act")
    func expectations() {
        let checks: [Step] = [
            .expectKill, .expectNoKill, .expectState(path: "a", value: "b"),
            .expectJournal(.appKilled, fields: [:], present: false), .expectUnit(property: "p", value: "v"), .repeat(2, .expectKill),
        ]
        #expect(checks.allSatisfy { $0.isExpectation && !$0.acts })
        #expect([Step.killApp, .tap("x"), .waitReady, .screen, .inScene(1, .screen)].allSatisfy { !$0.isExpectation })
    }
}

@Suite("Journal matches")
struct JournalMatchTests {
    @Test("systemd's entries are matched in the app's unit unless the step names one; fields come sorted by name")
    func matches() {
        let exited = JournalEvent.unitExited.messageID
        #expect(JournalEvent.unitExited.matches(["EXIT_STATUS": "9", "CODE": "killed"], unit: "a.service")
            == ["MESSAGE_ID=\(exited)", "UNIT=a.service", "CODE=killed", "EXIT_STATUS=9"])
        #expect(JournalEvent.unitExited.matches(["UNIT": "b.service"], unit: "a.service") == ["MESSAGE_ID=\(exited)", "UNIT=b.service"])
        let killed = JournalEvent.appKilled.messageID
        #expect(JournalEvent.appKilled.matches([:], unit: "a.service") == ["MESSAGE_ID=\(killed)"])
        #expect(JournalEvent.appKilled.matches(["SIGNAL": "KILL", "APP": "a", "PERMISSION": "camera"], unit: "a.service")
            == ["MESSAGE_ID=\(killed)", "APP=a", "PERMISSION=camera", "SIGNAL=KILL"])
    }
}
