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

    /// The build that is running; archives from another build are discarded.
    public let buildVersion: String
    /// The app delegate (held strongly; a delegate must not hold the application strongly).
    public var delegate: (any ApplicationDelegate)?
    /// The window showing the root view controller.
    public let window = Window()
    /// The restoration classes and storyboard scenes restoration can find by name.
    public var registry: RestorationRegistry
    /// Where the app is in its life.
    public internal(set) var state: LifecycleState = .launching

    /// An application for `buildVersion`, not yet launched.
    ///
    /// - Parameters:
    ///   - buildVersion: The running build, written into archives and compared when reading them.
    ///   - delegate: The app delegate.
    ///   - registry: Restoration classes and scenes, for restoring in a new process.
    public init(buildVersion: String, delegate: (any ApplicationDelegate)?, registry: RestorationRegistry = RestorationRegistry()) {
        self.buildVersion = buildVersion
        self.delegate = delegate
        self.registry = registry
    }
}

/// The window: the root of everything on screen.
public final class Window {
    /// The controller at the root of the hierarchy.
    public var rootViewController: ViewController?

    /// A window with no root yet.
    public init() {}

    /// Whether `controller` is in the window's hierarchy (its chain of parents and presenters reaches the root).
    public func contains(_ controller: ViewController) -> Bool {
        guard let root = rootViewController else { return false }
        return controller.hierarchyRoot === root
    }

    /// The topmost presented controller, or the root when nothing is presented.
    public var topViewController: ViewController? {
        var current = rootViewController
        while let next = current.flatMap(Self.presentedAnywhere(under:)) { current = next }
        return current
    }

    /// The restoration paths of everything preservation would save, in its order (parents first).
    public var restorationPaths: [[String]] {
        var paths: [[String]] = []
        func visit(_ controller: ViewController, _ parentPath: [String]) {
            guard let identifier = controller.restorationIdentifier else { return }
            paths.append(parentPath + [identifier])
            for child in controller.children { visit(child, parentPath + [identifier]) }
            if let presented = controller.presentedViewController { visit(presented, parentPath + [identifier]) }
        }
        if let rootViewController { visit(rootViewController, []) }
        return paths
    }

    /// What `controller` or one of the children it shows presents.
    private static func presentedAnywhere(under controller: ViewController) -> ViewController? {
        if let presented = controller.presentedViewController { return presented }
        for child in controller.children { if let found = presentedAnywhere(under: child) { return found } }
        return nil
    }
}
