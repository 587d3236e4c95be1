import RestorationKit
import Testing

/// UIKit's app-level keys are in the coder, and the app delegate alone judges an archive's build.
@Suite("App-level keys and the delegate's decision")
struct ApplicationKeysTests {
    /// A delegate that accepts only archives whose bundle version is in `accepted`.
    final class BuildJudge: ApplicationDelegate {
        var accepted: Set<String>
        var seen: [String: StateValue] = [:]
        init(accepting accepted: Set<String>) { self.accepted = accepted }

        func application(_ application: Application, shouldSaveApplicationState coder: inout StateCoder) -> Bool { true }
        func application(_ application: Application, shouldRestoreApplicationState coder: StateCoder) -> Bool {
            seen = coder.values
            return coder.decodeString(forKey: StateCoder.bundleVersionKey).map(accepted.contains) ?? false
        }
        func application(
            _ application: Application, viewControllerWithRestorationIdentifierPath identifierComponents: [String], coder: StateCoder
        ) -> ViewController? {
            let root = NoteController(identifierComponents.last)
            application.window.rootViewController = root
            return root
        }
    }

    private func archive(build: String) throws -> RestorationArchive {
        let application = Application(
            buildVersion: build, delegate: BuildJudge(accepting: []), systemVersion: "6.1.0-test", userInterfaceIdiom: .pad)
        application.window.rootViewController = NoteController("Root", note: "kept")
        return try #require(try application.preserve(generation: 1, timestamp: 1_700_000_000_250_000))
    }

    @Test("preservation writes the bundle version, system version, timestamp and idiom")
    func keysWritten() throws {
        let state = try archive(build: "41").applicationState
        #expect(state[StateCoder.bundleVersionKey] == .string("41"))
        #expect(state[StateCoder.systemVersionKey] == .string("6.1.0-test"))
        #expect(state[StateCoder.timestampKey] == .double(1_700_000_000.25))
        #expect(state[StateCoder.userInterfaceIdiomKey] == .int(1))
    }

    @Test("the system version defaults to the kernel release")
    func kernelRelease() {
        let application = Application(buildVersion: "1", delegate: nil)
        #expect(!application.systemVersion.isEmpty)
        #expect(application.systemVersion == Application.kernelRelease)
        #expect(application.systemVersion.first?.isNumber == true, "uname -r starts with the version: \(application.systemVersion)")
    }

    @Test("an archive of another build is restored when the delegate accepts it")
    func otherBuildAccepted() throws {
        let judge = BuildJudge(accepting: ["41"])
        let application = Application(buildVersion: "42", delegate: judge)
        let report = try restored(application.launch(restoringFrom: try archive(build: "41")))
        #expect(report.restored.map(\.path) == [["Root"]])
        #expect((application.window.rootViewController as? NoteController)?.note == "kept")
        #expect(judge.seen[StateCoder.systemVersionKey] == .string("6.1.0-test"), "the delegate sees the keys")
    }

    @Test("a decline of another build's archive is build-mismatch; of this build's, declined")
    func declineReasons() throws {
        let other = Application(buildVersion: "42", delegate: BuildJudge(accepting: []))
        #expect(other.launch(restoringFrom: try archive(build: "41")) == .declined(.buildMismatch))
        let same = Application(buildVersion: "41", delegate: BuildJudge(accepting: []))
        #expect(same.launch(restoringFrom: try archive(build: "41")) == .declined(.declined))
        #expect(same.window.rootViewController == nil)
    }

    @Test("an archive without the bundle version key is judged by its header's build")
    func headerBuild() throws {
        var old = try archive(build: "41")
        old.applicationState[StateCoder.bundleVersionKey] = nil
        let application = Application(buildVersion: "42", delegate: BuildJudge(accepting: ["41"]))
        #expect(application.launch(restoringFrom: old) == .declined(.buildMismatch))
        let same = Application(buildVersion: "41", delegate: BuildJudge(accepting: []))
        #expect(same.launch(restoringFrom: old) == .declined(.declined))
    }

    @Test("preservation and restoration are opt-in: a delegate that says nothing saves and restores nothing")
    func optIn() throws {
        final class Silent: ApplicationDelegate {}
        let application = Application(buildVersion: "41", delegate: Silent())
        application.window.rootViewController = NoteController("Root")
        #expect(try application.preserve(generation: 1, timestamp: 0) == nil)
        let fresh = Application(buildVersion: "41", delegate: Silent())
        #expect(fresh.launch(restoringFrom: try archive(build: "41")) == .declined(.declined))
        #expect(fresh.window.rootViewController == nil)
    }
}
