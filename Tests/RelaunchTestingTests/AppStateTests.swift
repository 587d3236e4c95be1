import CheckIn
import RelaunchApp
import RelaunchContract
import RelaunchDriver
@testable import RelaunchTesting
import RestorationKit
import Testing

/// RelaunchTesting reads the state JSON the apps write: checked on checkin-demo's own state, fresh
/// and restored, so a change to either side that the other does not follow fails here.
@Suite struct AppStateTests {
    private func launched(_ candidates: [ArchiveCandidate] = [], camera: PermissionState = .denied) -> CheckInApp {
        let app = CheckInApp(buildNumber: "7", camera: camera, wallClock: { 1_000 })
        app.launch(candidates: candidates, restoringMark: MemoryRestoringMark())
        return app
    }

    @Test func aFreshLaunchReadsAsFresh() throws {
        let state = try AppState(json: launched().stateJSON(), app: "checkin-demo")
        #expect(state.launch.outcome == .fresh)
        #expect(state.launch.discardReason == nil)
        #expect(state.lifecycle == .active)
        #expect(state.presented == nil)
        #expect(state.restoredVia.isEmpty)
        #expect(state.lastExit == nil)
        #expect(state.permissions == [.camera: .denied])
        #expect(state.paths.first == "TabViewController")
        #expect(state["modal"] == .null)
    }

    @Test func aRestoredLaunchReadsEachControllerAndTheAppsOwnKeys() throws {
        let before = launched()
        try before.tap("tab:check-in")
        try before.tap("check-in")
        try before.type("venue", "Harbour Cafe")
        try before.type("party-size", "3")
        before.background()
        let after = launched([ArchiveCandidate(source: "file", bytes: try before.preserve().bytes)], camera: .allowed)
        after.lastExit = LastExit(permission: .camera, old: .denied, new: .allowed)
        let state = try AppState(json: after.stateJSON(), app: "checkin-demo")
        let modal = "TabViewController/CheckInViewController/CheckInModalNavigationController"
        #expect(state.launch.outcome == .restored)
        #expect(state.presented == modal)
        #expect(state.restoredVia[modal] == .appDelegate)
        #expect(state.restoredVia[modal + "/CheckInModalViewController"] == .restorationClass)
        #expect(state.lastExit.map { [$0.permission.rawValue, $0.old.rawValue, $0.new.rawValue] } == ["camera", "denied", "allowed"])
        #expect(state.permissions[.camera] == .allowed)
        #expect(state.value(at: "modal.venue")?.string == "Harbour Cafe")
        #expect(state.value(at: "modal.partySize")?.int == 3)
        #expect(state.value(at: "modal.nothing") == nil)
    }

    @Test func aDiscardedLaunchNamesItsReason() throws {
        let json = #"{"launch":{"outcome":"discarded","reason":"force-quit"},"lifecycle":"active","paths":[],"presented":null,"restoredVia":{},"lastExit":null,"permissions":{}}"#
        let state = try AppState(json: json, app: "x")
        #expect(state.launch.discardReason == .forceQuit)
    }

    @Test(arguments: [
        (#"not json"#, "is not JSON"),
        (#"{"lifecycle":"active"}"#, "no readable \"launch\""),
        (#"{"launch":{"outcome":"sideways"},"lifecycle":"active"}"#, "no readable \"launch\""),
        (#"{"launch":{"outcome":"fresh"},"lifecycle":"active","paths":[],"restoredVia":{},"permissions":{"camera":"maybe"}}"#,
         "no readable \"permissions\""),
    ])
    func aStateThatIsNotAnAppsSaysWhichKeyIsWrong(json: String, message: String) {
        #expect {
            try AppState(json: json, app: "some-app")
        } throws: { error in
            let error = error as? RelaunchTestingError
            return error?.code == .unexpectedReply && error?.message.contains(message) == true
                && error?.message.contains("some-app") == true
        }
    }

    @Test func stateValuesPrintAsJSON() {
        let value = JSONValue.object(["a": .array([.number(1), .number(2.5), .string("x"), .null, .bool(true)])])
        #expect(value.description == #"{"a": [1, 2.5, "x", null, true]}"#)
        #expect(value.value(at: "a")?.description == #"[1, 2.5, "x", null, true]"#)
    }
}
