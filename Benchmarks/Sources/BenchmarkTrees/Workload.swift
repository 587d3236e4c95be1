public import Foundation
public import RestorationKit

/// One hierarchy of one shape and size, ready to preserve and restore, and its Codable equivalent
/// ready for Foundation's coders.
public final class Workload: @unchecked Sendable {
    /// The hierarchy's shape.
    public let shape: Shape
    /// How many controllers it has.
    public let count: Int
    /// The application showing the hierarchy.
    public let application: Application
    /// Its archive, as the app would write it.
    public private(set) var bytes: [UInt8]
    /// The same records as Codable values.
    public let codable: CodableArchive
    private var registry = RestorationRegistry()
    private let delegate = BenchDelegate()

    /// The `count`-controller hierarchy of `shape`, preserved once (and checked to restore whole).
    public init(shape: Shape, count: Int) {
        self.shape = shape
        self.count = count
        registry.register(BenchController.self)
        registry.register(BenchTabs.self)
        registry.register(BenchNavigation.self)
        application = Application(buildVersion: "bench", delegate: delegate, registry: registry, systemVersion: "bench")
        application.window.rootViewController = shape.makeHierarchy(count: count)
        codable = CodableArchive(root: application.window.rootViewController!)
        bytes = []
        bytes = preserve()
        let restored = restore()
        precondition(restored.window.rootViewController != nil, "\(shape) \(count) did not restore")
    }

    /// Preserves: walks the hierarchy and encodes the archive's bytes.
    public func preserve() -> [UInt8] {
        do {
            guard let archive = try application.preserve(generation: 1, timestamp: 1_700_000_000_000_000) else {
                preconditionFailure("the delegate declined")
            }
            return try ArchiveCodec.encode(archive)
        } catch {
            preconditionFailure("\(shape) \(count): \(error)")
        }
    }

    /// Restores: checks and decodes the bytes, and launches a new application that rebuilds the
    /// hierarchy from them (it is released by the caller, outside the measurement).
    public func restore() -> Application {
        let fresh = Application(buildVersion: "bench", delegate: delegate, registry: registry, systemVersion: "bench")
        do {
            let archive = try ArchiveCodec.decode(bytes).archive
            guard case .restored(let report) = fresh.launch(restoringFrom: archive), report.restored.count == count else {
                preconditionFailure("\(shape) \(count): not everything was restored")
            }
        } catch {
            preconditionFailure("\(shape) \(count): \(error)")
        }
        return fresh
    }

    /// Preserve's first half alone: the walk, to an archive (for profiling).
    public func walk() -> RestorationArchive {
        do {
            return try application.preserve(generation: 1, timestamp: 1_700_000_000_000_000)!
        } catch {
            preconditionFailure("\(shape) \(count): \(error)")
        }
    }

    /// Preserve's second half alone: `archive` to bytes (for profiling).
    public func encode(_ archive: RestorationArchive) -> [UInt8] { try! ArchiveCodec.encode(archive) }

    /// Restore's first half alone: the bytes checked and decoded (for profiling).
    public func decode() -> RestorationArchive { try! ArchiveCodec.decode(bytes).archive }

    /// Restore's second half alone: a new application launched from `archive` (for profiling).
    public func launch(_ archive: RestorationArchive) -> Application {
        let fresh = Application(buildVersion: "bench", delegate: delegate, registry: registry, systemVersion: "bench")
        fresh.launch(restoringFrom: archive)
        return fresh
    }

    /// Foundation's binary property list of the Codable records.
    public func plistEncode() -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return try! encoder.encode(codable)
    }

    /// The Codable records from a binary property list.
    public func plistDecode(_ data: Data) -> CodableArchive {
        try! PropertyListDecoder().decode(CodableArchive.self, from: data)
    }

    /// Foundation's JSON of the Codable records.
    public func jsonEncode() -> Data { try! JSONEncoder().encode(codable) }

    /// The Codable records from JSON.
    public func jsonDecode(_ data: Data) -> CodableArchive {
        try! JSONDecoder().decode(CodableArchive.self, from: data)
    }
}

/// What the archive holds, as Codable values: its header, the application-level values the engine
/// saves (UIKit's keys), and one record per controller with its parent's index instead of a path (a
/// nested tree 100k deep would overflow Foundation's recursive coders).
public struct CodableArchive: Codable, Sendable {
    /// The build that wrote it.
    public var build: String
    /// The archive's generation.
    public var generation: UInt64
    /// When it was written.
    public var timestamp: UInt64
    /// The application-level values every archive holds.
    public var application: CodableApplicationState
    /// The controllers, parents first.
    public var records: [CodableRecord]

    /// The records of the hierarchy under `root`, in preservation's order.
    init(root: ViewController) {
        build = "bench"
        generation = 1
        timestamp = 1_700_000_000_000_000
        application = CodableApplicationState(
            bundleVersion: "bench", systemVersion: "bench", timestamp: 1_700_000_000, userInterfaceIdiom: 0)
        records = []
        var pending: [(ViewController, parent: Int, relation: Int)] = [(root, 0, 0)]
        while let (controller, parent, relation) = pending.popLast() {
            let index = records.count + 1
            let bench = controller as? BenchController
            let tabs = controller.parent as? TabBarController
            records.append(
                CodableRecord(
                    parent: parent, relation: relation, identifier: controller.restorationIdentifier ?? "",
                    className: String(reflecting: type(of: controller)),
                    restorationClassName: controller.restorationClass.map { String(reflecting: $0) },
                    note: bench?.note ?? "", row: bench?.row ?? 0,
                    selected: tabs.map { $0.selectedViewController === controller } ?? false))
            if let presented = controller.presentedViewController { pending.append((presented, index, 3)) }
            let kind = controller is NavigationController ? 2 : 1
            for child in controller.children.reversed() { pending.append((child, index, kind)) }
        }
    }
}

/// One controller: its parent record (1-based; 0 for the root), how it hangs there, its identity
/// and its state.
public struct CodableRecord: Codable, Sendable {
    public var parent: Int
    /// 0 root, 1 child, 2 pushed, 3 presented.
    public var relation: Int
    public var identifier: String
    public var className: String
    public var restorationClassName: String?
    public var note: String
    public var row: Int
    /// Whether it is its tab bar's selected tab.
    public var selected: Bool
}

/// UIKit's application-level values, as the engine saves them in every archive.
public struct CodableApplicationState: Codable, Sendable {
    public var bundleVersion: String
    public var systemVersion: String
    public var timestamp: Double
    public var userInterfaceIdiom: Int
}
