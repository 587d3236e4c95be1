import RestorationKit
import Testing

/// Objects other than controllers and views: registered, scoped by a restoration parent, re-created
/// by an object restoration class or found registered again.
@Suite("Restoring other objects")
struct ObjectRestorationTests {
    /// A search query kept by the app, registered under its controller.
    final class Query: StateRestoring {
        var text = ""
        var decoded = 0
        var finished = false
        weak var parent: (any StateRestoring)?
        init(_ text: String = "", parent: (any StateRestoring)? = nil) {
            self.text = text
            self.parent = parent
        }
        var restorationParent: (any StateRestoring)? { parent }
        func encodeRestorableState(with coder: inout StateCoder) { coder.encode(text, forKey: "text") }
        func decodeRestorableState(with coder: StateCoder) {
            text = coder.decodeString(forKey: "text") ?? ""
            decoded += 1
        }
        func applicationFinishedRestoringState() { finished = true }
    }

    /// A settings object re-created by its object restoration class.
    final class Settings: StateRestoring, ObjectRestoration {
        nonisolated(unsafe) static var made: [Settings] = []
        var volume = 0
        var objectRestorationClass: (any ObjectRestoration.Type)? { Settings.self }
        func encodeRestorableState(with coder: inout StateCoder) { coder.encode(volume, forKey: "volume") }
        func decodeRestorableState(with coder: StateCoder) { volume = coder.decodeInt(forKey: "volume") ?? -1 }
        static func object(withRestorationIdentifierPath identifierComponents: [String], coder: StateCoder) -> (any StateRestoring)? {
            let settings = Settings()
            made.append(settings)
            return settings
        }
    }

    @Test("objects are saved under their parent's path and restored, registered again or re-created")
    func roundTrip() throws {
        let before = makeApplication()
        let root = NoteController("Root")
        before.window.rootViewController = root
        let query = Query("coffee", parent: root)
        let settings = Settings()
        settings.volume = 7
        let unpreservedParent = NoteController(nil)
        let unsaved = Query("not preserved", parent: unpreservedParent)
        before.registerObject(forStateRestoration: query, restorationIdentifier: "Query")
        before.registerObject(forStateRestoration: settings, restorationIdentifier: "Settings")
        before.registerObject(forStateRestoration: unsaved, restorationIdentifier: "Orphan")
        let archive = try #require(try before.preserve(generation: 1, timestamp: 0))
        #expect(archive.objects.map(\.path) == [["Settings"], ["Root", "Query"]])
        #expect(archive.objects[0].restorationClassName == String(reflecting: Settings.self))

        let delegate = TestDelegate()
        let after = makeApplication(delegate)
        after.registry.register(Settings.self)
        let newRoot = NoteController("Root")
        delegate.rootAtLaunch = { newRoot }
        let again = Query(parent: newRoot)
        after.registerObject(forStateRestoration: again, restorationIdentifier: "Query")
        Settings.made = []
        let report = try restored(after.launch(restoringFrom: try ArchiveCodec.decode(try ArchiveCodec.encode(archive)).archive))
        #expect(report.restoredObjects == [["Settings"], ["Root", "Query"]])
        #expect(again.text == "coffee" && again.decoded == 1 && again.finished)
        #expect(Settings.made.map(\.volume) == [7])
        withExtendedLifetime((query, settings, unsaved, unpreservedParent)) {}
    }

    @Test("an object whose parent is not restored, or that nothing registered, is left out with a note")
    func leftOut() throws {
        let archive = RestorationArchive(
            header: ArchiveHeader(buildVersion: "1", timestamp: 0, generation: 1), applicationState: [:], controllers: [],
            objects: [
                ArchivedObject(path: ["Gone", "Query"], restorationClassName: nil, state: ["text": .string("x")]),
                ArchivedObject(path: ["Lonely"], restorationClassName: nil, state: [:]),
            ])
        let report = try restored(makeApplication().launch(restoringFrom: archive))
        #expect(report.restoredObjects.isEmpty)
        #expect(report.notes == [
            "object Gone/Query is not restored: its restoration parent was not",
            "object Lonely is not restored: nothing registered or made it",
        ])
    }

    @Test("registering an object again replaces its identifier; a gone object is dropped")
    func reRegister() throws {
        let application = makeApplication()
        let query = Query("a")
        application.registerObject(forStateRestoration: query, restorationIdentifier: "Old")
        application.registerObject(forStateRestoration: query, restorationIdentifier: "New")
        do {
            let gone = Query("gone")
            application.registerObject(forStateRestoration: gone, restorationIdentifier: "Gone")
        }
        let archive = try #require(try application.preserve(generation: 1, timestamp: 0))
        #expect(archive.objects.map(\.path) == [["New"]])
        withExtendedLifetime(query) {}
    }

    @Test("two objects with one path cannot be preserved")
    func duplicate() throws {
        let application = makeApplication()
        let first = Query("a")
        let second = Query("b")
        application.registerObject(forStateRestoration: first, restorationIdentifier: "Same")
        application.registerObject(forStateRestoration: second, restorationIdentifier: "Same")
        let error = #expect(throws: PreservationError.self) { try application.preserve(generation: 1, timestamp: 0) }
        #expect(error?.path == ["Same"])
        withExtendedLifetime((first, second)) {}
    }
}
