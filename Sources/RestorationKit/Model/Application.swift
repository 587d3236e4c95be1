internal import Glibc

/// The application: its build, lifecycle, window, delegate and the registry restoration looks in.
///
/// Not thread-safe, like `UIApplication`: use it from one task or actor.
public final class Application {
    /// Where the app is in its life.
    public enum LifecycleState: String, Sendable, CaseIterable {
        /// Between process start and the end of `launch(restoringFrom:)`.
        case launching
        /// In front of the user.
        case active
        /// Not visible; its state has been (or is being) preserved.
        case background
    }

    /// The build that is running; saved in every archive under `StateCoder.bundleVersionKey`, for the
    /// app delegate to compare in `shouldRestoreApplicationState`.
    public let buildVersion: String
    /// The system's version, saved under `StateCoder.systemVersionKey`.
    public let systemVersion: String
    /// The interface idiom, saved under `StateCoder.userInterfaceIdiomKey`.
    public let userInterfaceIdiom: UserInterfaceIdiom
    /// The app delegate (held strongly; a delegate must not hold the application strongly).
    public var delegate: (any ApplicationDelegate)?
    /// The window showing the root view controller.
    public let window = Window()
    /// The restoration classes and storyboard scenes restoration can find by name.
    public var registry: RestorationRegistry
    /// Where the app is in its life.
    public internal(set) var state: LifecycleState = .launching
    /// How many `extendStateRestoration()` calls are not yet completed.
    public internal(set) var pendingStateRestorations = 0
    /// Whether a restoration ran and is not complete yet (extended and not all completed).
    public internal(set) var isRestoringState = false
    /// Called once when the last extension completes, or at the end of `launch` when none was asked for.
    var stateRestorationCompletion: (() -> Void)?
    /// Objects registered for preservation and restoration, held weakly, in registration order.
    var registeredObjects: [RegisteredObject] = []
    /// How many controllers the last preservation recorded: the next one allocates for as many.
    var lastPreservedCount = 0
    /// The scene sessions and connected scenes of a scene-based app (`Application+Scenes.swift`).
    var sceneTable = SceneTable()

    /// An application for `buildVersion`, not yet launched.
    ///
    /// - Parameters:
    ///   - buildVersion: The running build, written into archives and compared when reading them.
    ///   - delegate: The app delegate.
    ///   - registry: Restoration classes and scenes, for restoring in a new process.
    ///   - systemVersion: The system's version (default: the kernel release, as `uname -r` says it).
    ///   - userInterfaceIdiom: The kind of interface the app runs with.
    public init(
        buildVersion: String, delegate: (any ApplicationDelegate)?, registry: RestorationRegistry = RestorationRegistry(),
        systemVersion: String = Application.kernelRelease, userInterfaceIdiom: UserInterfaceIdiom = .phone
    ) {
        self.buildVersion = buildVersion
        self.systemVersion = systemVersion
        self.userInterfaceIdiom = userInterfaceIdiom
        self.delegate = delegate
        self.registry = registry
    }
}

/// A registered object and its identifier (the object held weakly).
struct RegisteredObject {
    weak var object: (any StateRestoring)?
    let identifier: String
}

extension Application {
    /// Registers `object` for preservation and restoration under `identifier` (`UIApplication`'s
    /// `registerObject(forStateRestoration:restorationIdentifier:)`); the application holds it weakly.
    ///
    /// Register objects without an `objectRestorationClass` before `launch(restoringFrom:)`, so that
    /// restoration finds them.
    public func registerObject(forStateRestoration object: any StateRestoring, restorationIdentifier identifier: String) {
        registeredObjects.removeAll { $0.object == nil || $0.object === object }
        registeredObjects.append(RegisteredObject(object: object, identifier: identifier))
    }

    /// The restoration path of a registered object (nil when it, or its parent, is not preserved).
    func restorationPath(ofObject object: any StateRestoring, seen: Int = 0) -> [String]? {
        guard seen < 64, let entry = registeredObjects.first(where: { $0.object === object }) else { return nil }
        guard let parent = object.restorationParent else { return [entry.identifier] }
        if let controller = parent as? ViewController {
            return controller.restorationPath.map { $0 + [entry.identifier] }
        }
        return restorationPath(ofObject: parent, seen: seen + 1).map { $0 + [entry.identifier] }
    }

    /// Says that restoration goes on after `launch(restoringFrom:)` returns (data loading in the
    /// background, say): restoration is complete only once every call is matched by
    /// `completeStateRestoration()`. Until then the restoring mark stays, so a crash in between
    /// discards the saved state at the next launch (`crashed-during-restore`), as in UIKit.
    ///
    /// Call it while restoring (from a restoration class, a decode or `applicationFinishedRestoringState`);
    /// outside a restoration it does nothing.
    public func extendStateRestoration() {
        guard isRestoringState else { return }
        pendingStateRestorations += 1
    }

    /// Ends one `extendStateRestoration()`; the last one completes restoration. Extra calls do nothing.
    public func completeStateRestoration() {
        guard pendingStateRestorations > 0 else { return }
        pendingStateRestorations -= 1
        if pendingStateRestorations == 0, state != .launching { finishStateRestoration() }
    }

    /// Marks restoration complete and runs the completion once.
    func finishStateRestoration() {
        guard isRestoringState else { return }
        isRestoringState = false
        let completion = stateRestorationCompletion
        stateRestorationCompletion = nil
        completion?()
    }

    /// Runs `body` once restoration is complete: now if it is (or none ran), else when the last
    /// `extendStateRestoration()` is completed.
    public func whenStateRestorationCompletes(_ body: @escaping () -> Void) {
        guard isRestoringState else { return body() }
        let previous = stateRestorationCompletion
        stateRestorationCompletion = {
            previous?()
            body()
        }
    }

    /// The kernel's release (`uname -r`), the system version on Linux; empty if it cannot be read.
    public static var kernelRelease: String {
        var names = utsname()
        guard uname(&names) == 0 else { return "" }
        return withUnsafeBytes(of: &names.release) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// The kind of interface an app runs with (`UIUserInterfaceIdiom`, with its raw values).
public enum UserInterfaceIdiom: Int, Sendable, CaseIterable {
    /// Not specified.
    case unspecified = -1
    /// A phone-sized screen.
    case phone = 0
    /// A tablet-sized screen.
    case pad = 1
    /// A television.
    case tv = 2
    /// A car's screen.
    case carPlay = 3
    /// A desktop.
    case mac = 5
}

/// The window: the root of everything on screen.
public final class Window {
    /// The controller at the root of the hierarchy.
    public var rootViewController: ViewController?

    /// A window with no root yet.
    public init() {}

    /// Whether `controller` is in the window's hierarchy (its chain of parents and presenters reaches the root).
    public func contains(_ controller: ViewController) -> Bool {
        // Without a root, no controller's hierarchy root is identical to nil: false.
        controller.hierarchyRoot === rootViewController
    }

    /// The topmost presented controller, or the root when nothing is presented.
    public var topViewController: ViewController? {
        var current = rootViewController
        while let next = current.flatMap(Self.presentedAnywhere(under:)) { current = next }
        return current
    }

    /// The restoration paths of everything preservation would save, in its order (parents first):
    /// a custom container's children only if it encodes them. Empty when two controllers share a path.
    public var restorationPaths: [[String]] {
        ((try? Preserver.records(from: rootViewController)) ?? []).map(\.path)
    }

    /// What `controller` or one of the children it shows presents.
    private static func presentedAnywhere(under controller: ViewController) -> ViewController? {
        if let presented = controller.presentedViewController { return presented }
        for child in controller.children { if let found = presentedAnywhere(under: child) { return found } }
        return nil
    }
}
