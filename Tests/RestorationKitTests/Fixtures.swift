import Glibc
import Testing
import RestorationKit

/// A controller that saves one note and counts how often it decoded.
class NoteController: ViewController {
    var note = ""
    var decodeCount = 0
    var finishedRestoring = false

    init(_ identifier: String?, note: String = "") {
        super.init()
        restorationIdentifier = identifier
        self.note = note
    }

    /// A custom container: it encodes its children itself, or they are not preserved (as in UIKit).
    override func encodeRestorableState(with coder: inout StateCoder) {
        super.encodeRestorableState(with: &coder)
        coder.encode(note, forKey: "note")
        if !children.isEmpty { coder.encode(children, forKey: "children") }
    }

    /// The test delegate of the application restoring it, which logs the order of every call.
    private weak var restoringDelegate: TestDelegate?

    override func decodeRestorableState(with coder: StateCoder) {
        super.decodeRestorableState(with: coder)
        note = coder.decodeString(forKey: "note") ?? ""
        decodeCount += 1
        // Adds back the restored children it encoded, in the saved order.
        for child in coder.decodeViewControllers(forKey: "children") {
            child.removeFromParent()
            addChild(child)
        }
        restoringDelegate = coder.application?.delegate as? TestDelegate
        restoringDelegate?.log.append("decode \(restorationIdentifier ?? "nil")")
    }

    override func applicationFinishedRestoringState() {
        finishedRestoring = true
        restoringDelegate?.log.append("finished \(restorationIdentifier ?? "nil")")
    }
}

/// A note controller with a restoration class whose answers the test delegate scripts.
final class RestorableNote: NoteController, ViewControllerRestoration {
    convenience init(restorable identifier: String, note: String = "") {
        self.init(identifier, note: note)
        restorationClass = RestorableNote.self
    }

    static func viewController(withRestorationIdentifierPath path: [String], coder: StateCoder) -> ViewController? {
        let delegate = coder.application?.delegate as? TestDelegate
        delegate?.log.append("restorationClass \(path.joined(separator: "/"))")
        if delegate?.restorationClassDeclines.contains(path) == true { return nil }
        let controller = delegate?.restorationClassReturns[path]?() ?? RestorableNote(restorable: path.last!)
        if path.count == 1, delegate?.restorationClassSetsRoot ?? true {
            coder.application?.window.rootViewController = controller
        }
        return controller
    }
}

/// A delegate that logs every call and answers as the test scripts it.
final class TestDelegate: ApplicationDelegate {
    var log: [String] = []
    var shouldSave = true
    var shouldRestore = true
    var restorationClassDeclines: Set<[String]> = []
    var restorationClassReturns: [[String]: () -> ViewController] = [:]
    var restorationClassSetsRoot = true
    var fallback: [[String]: () -> ViewController] = [:]
    var rootAtLaunch: (() -> ViewController)?

    func applicationWillFinishLaunching(_ application: Application) {
        log.append("willFinishLaunching")
        if let rootAtLaunch { application.window.rootViewController = rootAtLaunch() }
    }

    func applicationDidFinishLaunching(_ application: Application) { log.append("didFinishLaunching") }

    func application(_ application: Application, shouldSaveApplicationState coder: inout StateCoder) -> Bool {
        log.append("shouldSave")
        coder.encode("delegate-was-here", forKey: "app")
        return shouldSave
    }

    func application(_ application: Application, willEncodeRestorableStateWith coder: inout StateCoder) {
        log.append("willEncode build=\(coder.decodeString(forKey: StateCoder.bundleVersionKey) ?? "none")")
        coder.encode("will-encode-was-here", forKey: "willEncode")
    }

    func application(_ application: Application, shouldRestoreApplicationState coder: StateCoder) -> Bool {
        log.append("shouldRestore build=\(coder.decodeString(forKey: StateCoder.bundleVersionKey) ?? "none")")
        return shouldRestore
    }

    func application(
        _ application: Application, viewControllerWithRestorationIdentifierPath path: [String], coder: StateCoder
    ) -> ViewController? {
        log.append("appDelegate \(path.joined(separator: "/"))")
        return fallback[path]?()
    }

    func application(_ application: Application, didDecodeRestorableStateWith coder: StateCoder) {
        log.append("didDecode app=\(coder.decodeString(forKey: "app") ?? "none")")
    }
}

/// A fresh application for build "1" with `RestorableNote` registered.
func makeApplication(_ delegate: TestDelegate = TestDelegate(), build: String = "1") -> Application {
    var registry = RestorationRegistry()
    registry.register(RestorableNote.self)
    return Application(buildVersion: build, delegate: delegate, registry: registry)
}

/// Preserves `root`, sends the archive through bytes, restores it in a new application.
func relaunch(
    _ root: ViewController, configure: (TestDelegate, inout RestorationRegistry) -> Void = { _, _ in }
) throws -> (application: Application, delegate: TestDelegate, report: RestorationReport) {
    let before = makeApplication()
    before.window.rootViewController = root
    let archive = try #require(try before.preserve(generation: 1, timestamp: 0))
    let bytes = try ArchiveCodec.encode(archive)
    let decoded = try ArchiveCodec.decode(bytes, expectedBuild: "1").archive

    let delegate = TestDelegate()
    let after = makeApplication(delegate)
    configure(delegate, &after.registry)
    return (after, delegate, try restored(after.launch(restoringFrom: decoded)))
}

/// The report of a launch that restored, or an error saying what happened instead.
func restored(_ outcome: Application.RestorationOutcome) throws -> RestorationReport {
    struct NotRestored: Error, CustomStringConvertible {
        let outcome: Application.RestorationOutcome
        var description: String { "expected a restoration, the launch had \(outcome)" }
    }
    guard case .restored(let report) = outcome else { throw NotRestored(outcome: outcome) }
    return report
}

/// A path from a slash-separated string.
func path(_ joined: String) -> [String] { joined.split(separator: "/").map(String.init) }

/// A small archive with every kind of value and relationship.
func sampleArchive(generation: UInt64 = 1, build: String = "1") -> RestorationArchive {
    RestorationArchive(
        header: ArchiveHeader(buildVersion: build, timestamp: 1_700_000_000_000_000, generation: generation),
        applicationState: [StateCoder.bundleVersionKey: .string(build)],
        controllers: [
            ArchivedController(
                path: ["Tabs"], className: "App.Tabs", restorationClassName: "App.Tabs",
                relationships: [.init(.child, "Nav"), .init(.selectedTab, "Nav")], state: [:]),
            ArchivedController(
                path: ["Tabs", "Nav"], className: "RestorationKit.NavigationController", restorationClassName: nil,
                relationships: [.init(.pushed, "List"), .init(.presented, "Modal")],
                state: [
                    "int": .int(-42), "double": .double(2.5), "bool": .bool(true), "string": .string("héllo ✓"),
                    "strings": .strings(["a", "", "c"]), "bytes": .bytes([0, 255, 7]),
                ]),
        ])
}

/// `sampleArchive`'s bytes.
func sampleBytes(generation: UInt64 = 1, build: String = "1") throws -> [UInt8] {
    try ArchiveCodec.encode(sampleArchive(generation: generation, build: build))
}

/// `bytes` with the length and checksum fixed up, as a writer with a bug (or a forger) would leave them.
func resealed(_ bytes: [UInt8]) -> [UInt8] {
    var bytes = bytes
    guard bytes.count >= ArchiveCodec.prefixSize else { return bytes }
    func put(_ value: UInt32, at offset: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
    }
    put(UInt32(bytes.count - ArchiveCodec.prefixSize), at: 8)
    put(CRC32.checksum(bytes[ArchiveCodec.prefixSize...], continuing: CRC32.checksum(bytes[4..<12])), at: 12)
    return bytes
}
