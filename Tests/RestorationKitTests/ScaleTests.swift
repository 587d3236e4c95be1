import RestorationKit
import Testing

/// Large hierarchies of every shape come back whole, and format 3 stores each path once (issue 13).
/// Speed is measured in Benchmarks/, not here.
@Suite("Large hierarchies", .serialized)
struct ScaleTests {
    @Test("a tab bar of 10,000 tabs restores every tab in order, its state and the selected tab")
    func wideTabBar() throws {
        let tabs = ScaleTabs()
        tabs.setViewControllers((0..<10_000).map { ScaleNote("Tab\($0)", note: "n\($0)") })
        tabs.select(index: 7_777)
        let (application, report) = try relaunchAtScale(tabs)
        let restored = try #require(application.window.rootViewController as? ScaleTabs)
        #expect(restored.children.count == 10_000)
        #expect(restored.children.map(\.restorationIdentifier) == (0..<10_000).map { "Tab\($0)" })
        #expect(restored.children.enumerated().allSatisfy { ($1 as? ScaleNote)?.note == "n\($0)" })
        #expect(restored.selectedIndex == 7_777)
        #expect(report.restored.count == 10_001 && report.skipped.isEmpty)
    }

    @Test("tabs made again by the tab bar's restoration class are replaced in place by the restored ones")
    func tabsReplacedInPlace() throws {
        let tabs = ScaleTabs()
        tabs.setViewControllers((0..<5_000).map { ScaleNote("Tab\($0)", note: "n\($0)") })
        ScaleTabs.placeholders = 5_000
        defer { ScaleTabs.placeholders = 0 }
        let (application, _) = try relaunchAtScale(tabs)
        let restored = try #require(application.window.rootViewController as? ScaleTabs)
        #expect(restored.children.count == 5_000)
        #expect(restored.children.enumerated().allSatisfy { ($1 as? ScaleNote)?.note == "n\($0)" && $1.parent === restored })
    }

    @Test("a tab replaced in place gets the callbacks of a removal and an insertion, in that order")
    func replacedTabCallbacks() throws {
        let tabs = ScaleTabs()
        tabs.restorationClass = LoggingTabs.self
        tabs.setViewControllers([LoggingNote("Tab0", note: "saved0"), LoggingNote("Tab1", note: "saved1")])
        tabs.select(index: 1)
        let before = makeScaleApplication()
        before.window.rootViewController = tabs
        let archive = try #require(try before.preserve(generation: 1, timestamp: 0))
        LoggingNote.log = []
        let after = makeScaleApplication()
        after.registry.register(LoggingTabs.self)
        after.registry.register(LoggingNote.self)
        _ = try restored(after.launch(restoringFrom: archive))
        let restoredTabs = try #require(after.window.rootViewController as? TabBarController)
        #expect(restoredTabs.children.map { ($0 as? LoggingNote)?.note } == ["saved0", "saved1"])
        #expect(restoredTabs.selectedIndex == 1)
        #expect(LoggingNote.log == [
            "placeholder0 willMove Tabs", "placeholder0 didMove Tabs", "placeholder1 willMove Tabs", "placeholder1 didMove Tabs",
            "placeholder0 willMove nil", "placeholder0 didMove nil", "restored willMove Tabs", "restored didMove Tabs",
            "placeholder1 willMove nil", "placeholder1 didMove nil", "restored willMove Tabs", "restored didMove Tabs",
        ])
    }

    @Test("a custom container of 10,000 encoded children gets them all back in its decode")
    func wideCustomContainer() throws {
        let container = ScaleNote("Container", note: "root")
        for index in 0..<10_000 { container.addChild(ScaleNote("C\(index)", note: "c\(index)")) }
        let (application, report) = try relaunchAtScale(container)
        let restored = try #require(application.window.rootViewController as? ScaleNote)
        #expect(restored.children.map(\.restorationIdentifier) == (0..<10_000).map { "C\($0)" })
        #expect(report.restored.count == 10_001)
    }

    @Test("a chain of 100,000 presentations preserves, restores and is released without overflowing the stack")
    func presentationChain() throws {
        let root = ScaleNote("P0", note: "0")
        var top = root
        for index in 1..<100_000 {
            let next = ScaleNote("P\(index)", note: "\(index)")
            #expect(top.present(next, animated: false))
            top = next
        }
        let (application, report) = try relaunchAtScale(root)
        // (Not `report.presented`: it builds every path, 5 billion identifiers for this chain.)
        #expect(report.restored.count == 100_000)
        #expect(report.restored.last?.path.count == 100_000)
        var current = application.window.rootViewController
        var depth = 0
        var wrongNotes = 0
        while let controller = current as? ScaleNote {
            if controller.note != "\(depth)" { wrongNotes += 1 }
            depth += 1
            current = controller.presentedViewController
        }
        #expect(depth == 100_000 && wrongNotes == 0)
        #expect((top.restorationPath?.count) == 100_000)
        application.window.rootViewController = nil
    }

    @Test("format 3 stores each path once: bytes per controller do not grow with depth")
    func bytesIndependentOfDepth() throws {
        func bytesPerController(_ root: ViewController, count: Int) throws -> Double {
            let application = makeScaleApplication()
            application.window.rootViewController = root
            let archive = try #require(try application.preserve(generation: 1, timestamp: 0))
            return Double(try ArchiveCodec.encode(archive).count) / Double(count)
        }
        let chain = ScaleNote("P0")
        var top = chain
        for index in 1..<2_000 {
            let next = ScaleNote("P\(index)")
            top.present(next, animated: false)
            top = next
        }
        let flat = ScaleNote("P0")
        for index in 1..<2_000 { flat.addChild(ScaleNote("P\(index)")) }
        let deep = try bytesPerController(chain, count: 2_000)
        let wide = try bytesPerController(flat, count: 2_000)
        #expect(abs(deep - wide) < 2, "chain \(deep) vs flat \(wide) bytes per controller")
        #expect(deep < 40, "\(deep) bytes per controller")
    }

    @Test("paths, class names and keys stored once still decode to the same records, in format 3 and in format 2")
    func dedupedRoundTrip() throws {
        let root = ScaleNote("Root", note: "r")
        let navigation = NavigationController(rootViewController: ScaleNote("List", note: "l"))
        navigation.restorationIdentifier = "Nav"
        root.addChild(navigation)
        navigation.pushViewController(ScaleNote("Detail", note: "d"))
        root.present(ScaleNote("Modal", note: "m"), animated: false)
        let application = makeScaleApplication()
        application.window.rootViewController = root
        let archive = try #require(try application.preserve(generation: 3, timestamp: 4))
        let three = try ArchiveCodec.encode(archive)
        let two = try ArchiveCodec.encode(archive, formatVersion: 2)
        #expect(three[4] == 3 && two[4] == 2)
        #expect(three.count < two.count)
        for bytes in [three, two] {
            let decoded = try ArchiveCodec.decode(bytes).archive
            #expect(decoded.controllers == archive.controllers)
            #expect(decoded.controllers.map(\.path) == [
                ["Root"], ["Root", "Nav"], ["Root", "Nav", "List"], ["Root", "Nav", "Detail"], ["Root", "Modal"],
            ])
            #expect(decoded.controllers.map(\.identifier) == ["Root", "Nav", "List", "Detail", "Modal"])
            #expect(decoded.controllers[3].state == ["note": .string("d")])
        }
        #expect(try ArchiveCodec.encode(ArchiveCodec.decode(two).archive) == three, "format 2 read and written again is format 3's bytes")
    }

    @Test("UIKit's application keys and the built-in classes are not written out; a reader refuses a longer predefined list")
    func predefinedStrings() throws {
        let navigation = NavigationController(rootViewController: ScaleNote("List"))
        navigation.restorationIdentifier = "Nav"
        let application = makeScaleApplication()
        application.window.rootViewController = navigation
        let archive = try #require(try application.preserve(generation: 1, timestamp: 0))
        let bytes = try ArchiveCodec.encode(archive)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains(StateCoder.bundleVersionKey) && !text.contains("RestorationKit.NavigationController"))
        #expect(text.contains("ScaleTests.ScaleNote") || text.contains("ScaleNote"))
        let decoded = try ArchiveCodec.decode(bytes).archive
        #expect(decoded.controllers == archive.controllers && decoded.applicationState == archive.applicationState)
        #expect(decoded.controllers[0].className == String(reflecting: NavigationController.self))

        // The count of predefined strings follows the build version ("1": a length and one byte).
        var longer = bytes
        longer[ArchiveCodec.prefixSize + 16 + 2] = 100
        let error = #expect(throws: ArchiveError.self) { try ArchiveCodec.decode(resealed(longer)) }
        #expect(error?.code == .malformed && error?.description.contains("predefined string count") == true)
    }

    @Test("every integer and an object's path survive format 3")
    func valuesAndObjects() throws {
        let values: [Int64] = [0, 1, -1, 63, -64, 64, 127, 128, 300, -300, .max, .min, .max - 1, .min + 1]
        var state: [String: StateValue] = [:]
        for (index, value) in values.enumerated() { state["k\(index)"] = .int(value) }
        state["list"] = .strings(["Tabs", "", "Tabs"])
        state["raw"] = .bytes([0, 255])
        state["text"] = .string("héllo ✓")
        let archive = RestorationArchive(
            header: ArchiveHeader(buildVersion: "1", timestamp: 1, generation: 2), applicationState: state,
            controllers: [
                ArchivedController(path: ["Tabs"], className: "A.Tabs", restorationClassName: nil, relationships: [.init(.child, "X")], state: state),
                ArchivedController(path: ["Tabs", "X"], className: "A.X", restorationClassName: "A.X", relationships: [], state: [:]),
                ArchivedController(path: ["Orphan", "Y"], className: "A.X", restorationClassName: nil, relationships: [], state: [:]),
            ],
            objects: [ArchivedObject(path: ["Tabs", "X", "Model"], restorationClassName: "A.M", state: ["v": .bool(true)])])
        let decoded = try ArchiveCodec.decode(try ArchiveCodec.encode(archive)).archive
        #expect(decoded.applicationState == state)
        #expect(decoded.controllers == archive.controllers)
        #expect(decoded.objects == archive.objects)
    }

    @Test("over-long varints are refused: every value has one encoding")
    func overlongVarint() throws {
        let archive = RestorationArchive(header: ArchiveHeader(buildVersion: "1", timestamp: 0, generation: 1), applicationState: [:], controllers: [])
        var bytes = try ArchiveCodec.encode(archive)
        // The build version's length (1) as two bytes: 0x81 0x00.
        let lengthOffset = ArchiveCodec.prefixSize + 16
        #expect(bytes[lengthOffset] == 1)
        bytes[lengthOffset] = 0x81
        bytes.insert(0, at: lengthOffset + 1)
        let error = #expect(throws: ArchiveError.self) { try ArchiveCodec.decode(resealed(bytes)) }
        #expect(error?.code == .malformed)
        #expect(error?.description.contains("needless zero group") == true)
    }

    @Test("random damage to a format 2 archive is caught as before")
    func formatTwoFuzz() throws {
        let original = try ArchiveCodec.encode(sampleArchive(), formatVersion: 2)
        #expect(try ArchiveCodec.decode(original).archive.controllers == sampleArchive().controllers)
        var random = SplitMix64(seed: 0x2222)
        var refused = 0
        for _ in 0..<2000 {
            var bytes = original
            for _ in 0...random.next(below: 3) { bytes[random.next(below: bytes.count)] ^= UInt8(1 + random.next(below: 255)) }
            guard bytes != original else { continue }
            bytes = resealed(bytes)
            do {
                let archive = try ArchiveCodec.decode(bytes).archive
                #expect(try ArchiveCodec.decode(try ArchiveCodec.encode(archive, formatVersion: 2)).archive == archive)
                // Written again in format 3, only the header's format version differs.
                var three = try ArchiveCodec.decode(try ArchiveCodec.encode(archive)).archive
                #expect(three.header.formatVersion == 3)
                three.header.formatVersion = 2
                #expect(three == archive)
            } catch {
                refused += 1
            }
        }
        #expect(refused > 1000)
    }
}

/// A controller with a note and a restoration class that makes a new one (and the root, for a path of one).
final class ScaleNote: ViewController, ViewControllerRestoration {
    var note = ""

    init(_ identifier: String, note: String = "") {
        super.init()
        restorationIdentifier = identifier
        restorationClass = ScaleNote.self
        self.note = note
    }

    override func encodeRestorableState(with coder: inout StateCoder) {
        super.encodeRestorableState(with: &coder)
        coder.encode(note, forKey: "note")
        if !children.isEmpty { coder.encode(children, forKey: "children") }
    }

    override func decodeRestorableState(with coder: StateCoder) {
        super.decodeRestorableState(with: coder)
        note = coder.decodeString(forKey: "note") ?? ""
        for child in coder.decodeViewControllers(forKey: "children") { addChild(child) }
    }

    static func viewController(withRestorationIdentifierPath path: [String], coder: StateCoder) -> ViewController? {
        let made = ScaleNote(path[path.count - 1])
        if path.count == 1 { coder.application?.window.rootViewController = made }
        return made
    }
}

/// A tab bar whose restoration class makes an empty one, or one of `placeholders` new tabs.
final class ScaleTabs: TabBarController, ViewControllerRestoration {
    nonisolated(unsafe) static var placeholders = 0

    override init() {
        super.init()
        restorationIdentifier = "Tabs"
        restorationClass = ScaleTabs.self
    }

    static func viewController(withRestorationIdentifierPath path: [String], coder: StateCoder) -> ViewController? {
        let made = ScaleTabs()
        made.setViewControllers((0..<placeholders).map { ScaleNote("Tab\($0)", note: "placeholder") })
        coder.application?.window.rootViewController = made
        return made
    }
}

/// A tab bar restored with placeholder tabs that log their moves.
final class LoggingTabs: ViewControllerRestoration {
    static func viewController(withRestorationIdentifierPath path: [String], coder: StateCoder) -> ViewController? {
        let made = ScaleTabs()
        made.setViewControllers([LoggingNote("Tab0", note: "placeholder0"), LoggingNote("Tab1", note: "placeholder1")])
        coder.application?.window.rootViewController = made
        return made
    }
}

/// A tab that logs its moves; its restoration class makes a new one.
final class LoggingNote: ViewController, ViewControllerRestoration {
    nonisolated(unsafe) static var log: [String] = []
    var note: String

    init(_ identifier: String, note: String) {
        self.note = note
        super.init()
        restorationIdentifier = identifier
        restorationClass = LoggingNote.self
    }

    override func encodeRestorableState(with coder: inout StateCoder) { coder.encode(note, forKey: "note") }
    override func decodeRestorableState(with coder: StateCoder) { note = coder.decodeString(forKey: "note") ?? note }

    override func willMove(toParent parent: ViewController?) {
        LoggingNote.log.append("\(note) willMove \(parent?.restorationIdentifier ?? "nil")")
    }

    override func didMove(toParent parent: ViewController?) {
        LoggingNote.log.append("\(note) didMove \(parent?.restorationIdentifier ?? "nil")")
    }

    static func viewController(withRestorationIdentifierPath path: [String], coder: StateCoder) -> ViewController? {
        LoggingNote(path[path.count - 1], note: "restored")
    }
}

/// An application that knows the scale tests' restoration classes.
func makeScaleApplication() -> Application {
    var registry = RestorationRegistry()
    registry.register(ScaleNote.self)
    registry.register(ScaleTabs.self)
    return Application(buildVersion: "1", delegate: TestDelegate(), registry: registry)
}

/// Preserves `root`, sends it through bytes and restores it in a new application.
func relaunchAtScale(_ root: ViewController) throws -> (Application, RestorationReport) {
    let before = makeScaleApplication()
    before.window.rootViewController = root
    let archive = try #require(try before.preserve(generation: 1, timestamp: 0))
    let decoded = try ArchiveCodec.decode(try ArchiveCodec.encode(archive)).archive
    let after = makeScaleApplication()
    return (after, try restored(after.launch(restoringFrom: decoded)))
}
