import RestorationKit
import Testing

/// extendStateRestoration / completeStateRestoration: restoration completes with the last completion.
@Suite("Asynchronous restoration", .serialized)
struct AsyncRestorationTests {
    /// A controller whose restoration class extends restoration `extensions` times.
    final class Loading: NoteController, ViewControllerRestoration {
        nonisolated(unsafe) static var extensions = 1

        static func viewController(withRestorationIdentifierPath path: [String], coder: StateCoder) -> ViewController? {
            for _ in 0..<extensions { coder.application?.extendStateRestoration() }
            let made = Loading(path.last)
            made.restorationClass = Loading.self
            coder.application?.window.rootViewController = made
            return made
        }
    }

    private func launchExtended(_ extensions: Int) throws -> (Application, [String]) {
        Loading.extensions = extensions
        let before = Application(buildVersion: "1", delegate: TestDelegate())
        let root = Loading("Root", note: "saved")
        root.restorationClass = Loading.self
        before.window.rootViewController = root
        let archive = try #require(try before.preserve(generation: 1, timestamp: 0))
        var registry = RestorationRegistry()
        registry.register(Loading.self)
        let after = Application(buildVersion: "1", delegate: TestDelegate(), registry: registry)
        var events: [String] = []
        _ = try restored(after.launch(restoringFrom: archive))
        after.whenStateRestorationCompletes { events.append("complete") }
        return (after, events)
    }

    @Test("without an extension restoration is complete when launch returns")
    func notExtended() throws {
        let (application, events) = try launchExtended(0)
        #expect(!application.isRestoringState)
        #expect(events == ["complete"])
    }

    @Test("an extended restoration completes with the last completeStateRestoration, once")
    func extended() throws {
        Loading.extensions = 2
        let before = Application(buildVersion: "1", delegate: TestDelegate())
        let root = Loading("Root")
        root.restorationClass = Loading.self
        before.window.rootViewController = root
        let archive = try #require(try before.preserve(generation: 1, timestamp: 0))
        var registry = RestorationRegistry()
        registry.register(Loading.self)
        let application = Application(buildVersion: "1", delegate: TestDelegate(), registry: registry)
        var completions = 0
        _ = try restored(application.launch(restoringFrom: archive))
        application.whenStateRestorationCompletes { completions += 1 }
        #expect(application.isRestoringState && application.pendingStateRestorations == 2)
        application.completeStateRestoration()
        #expect(completions == 0 && application.isRestoringState)
        application.completeStateRestoration()
        #expect(completions == 1 && !application.isRestoringState)
        application.completeStateRestoration()
        #expect(completions == 1, "an extra completion does nothing")
    }

    @Test("extending outside a restoration does nothing")
    func outsideRestoration() {
        let application = Application(buildVersion: "1", delegate: TestDelegate())
        application.extendStateRestoration()
        #expect(application.pendingStateRestorations == 0 && !application.isRestoringState)
        application.launch(restoringFrom: nil)
        application.extendStateRestoration()
        #expect(application.pendingStateRestorations == 0)
    }
}
