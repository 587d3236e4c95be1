/// A view controller as state restoration sees it: an identifier, a restoration class, its place in
/// the hierarchy (children, presentations) and hooks to encode and decode its own state.
///
/// Subclass it the way you would subclass `UIViewController`; call `super` from the overridden hooks.
open class ViewController {
    /// The name it is preserved under; nil means it, its children and whatever it presents are skipped.
    public final var restorationIdentifier: String?
    /// The class that re-creates it at restoration, tried before the app delegate (register it in the
    /// application's `registry` so that a new process can find it by name).
    public final var restorationClass: (any ViewControllerRestoration.Type)?
    /// A title for drawing.
    open var title: String?
    /// The root of its views; views in it with restoration identifiers are preserved with it.
    /// Made on first use, as UIKit loads a view when it is first asked for.
    public var view: View {
        get {
            if let loadedView { return loadedView }
            let made = View()
            loadedView = made
            return made
        }
        set { loadedView = newValue }
    }
    /// Whether `view` was made or set (UIKit's `isViewLoaded`): preservation looks at no other view.
    public var isViewLoaded: Bool { loadedView != nil }
    private var loadedView: View?
    /// The storyboard it was instantiated from, if any.
    public internal(set) final var storyboard: Storyboard?
    /// Its scene's storyboard id, when a storyboard made it.
    public internal(set) final var storyboardIdentifier: String?

    /// The container it is a child of.
    public internal(set) final weak var parent: ViewController?
    /// The controllers it contains, in order.
    public internal(set) final var children: [ViewController] = [] {
        didSet { childrenVersion &+= 1 }
    }
    /// Changes with every change of `children`, so that an index of them can tell it is out of date.
    final var childrenVersion = 0
    /// The last walk of the window's hierarchy that reached it (`WindowMembership`).
    final var windowMark: UInt64 = 0
    /// The controller that presented it.
    public internal(set) final weak var presentingViewController: ViewController?
    /// The controller it presents.
    public internal(set) final var presentedViewController: ViewController?
    /// How it is presented when it is presented.
    public final var modalPresentationStyle: ModalPresentationStyle = .automatic
    /// Whether a `.currentContext` or `.overCurrentContext` presentation from it or a controller it
    /// contains is made by this controller (which then becomes the presented controller's presenter,
    /// and so its parent in the restoration path), as in UIKit.
    public final var definesPresentationContext = false
    /// Who animates its presentation when `modalPresentationStyle` is `.custom` (held weakly, as UIKit does).
    public weak var transitioningDelegate: (any ViewControllerTransitioningDelegate)?

    /// A controller with no identifier (it is not preserved until it gets one).
    public init() {}

    deinit {
        // Releasing a long chain of single children one level inside the other overflows the stack
        // (a 256 KiB stack at 20,000 levels): release what only this controller holds from a loop
        // instead. Presented controllers are taken along, so that a chain mixing children and
        // presentations is released here too. A controller with neither runs the loop zero times.
        var pending = children
        children = []
        if let presented = presentedViewController {
            pending.append(presented)
            presentedViewController = nil
        }
        while var next = pending.popLast() {
            guard isKnownUniquelyReferenced(&next) else { continue }
            pending += next.children
            next.children = []
            if let presented = next.presentedViewController {
                pending.append(presented)
                next.presentedViewController = nil
            }
        }
    }

    /// Its class, module-qualified, as the archive records it (`"CheckIn.TabViewController"`).
    public final var className: String { TypeNameCache.name(of: type(of: self)) }

    /// The restoration identifiers from the root to it, through parents and presenters; nil when it or
    /// an ancestor has none.
    public final var restorationPath: [String]? {
        var path: [String] = []
        var current: ViewController? = self
        while let controller = current {
            guard let identifier = controller.restorationIdentifier else { return nil }
            path.append(identifier)
            current = controller.parent ?? controller.presentingViewController
        }
        return path.reversed()
    }

    /// The top of its chain of parents and presenters.
    public final var hierarchyRoot: ViewController {
        var current = self
        while let above = current.parent ?? current.presentingViewController { current = above }
        return current
    }

    /// Saves what it needs to come back (identifiers and UI state, not model data).
    open func encodeRestorableState(with coder: inout StateCoder) {}

    /// Restores what `encodeRestorableState(with:)` saved; called parents first, after the hierarchy is rebuilt.
    open func decodeRestorableState(with coder: StateCoder) {}

    /// Called on every restored controller once all of them have decoded their state.
    open func applicationFinishedRestoringState() {}

    /// Called on the source of a storyboard segue before the destination is shown (UIKit's
    /// `prepareForSegue:sender:`): hand the destination what it shows here.
    open func prepare(for segue: StoryboardSegue, sender: (any Sendable)?) {}

    /// Called before it is added to or removed from (`nil`) a container.
    open func willMove(toParent parent: ViewController?) {}

    /// Called after it was added to or removed from (`nil`) a container.
    open func didMove(toParent parent: ViewController?) {}
}

/// How a presented controller covers its presenter.
public enum ModalPresentationStyle: String, Sendable, CaseIterable {
    /// The system's choice (a sheet).
    case automatic
    /// Covers the presenter, which is removed.
    case fullScreen
    /// A sheet over the presenter.
    case pageSheet
    /// A smaller sheet, centred.
    case formSheet
    /// Covers the presenter, which stays visible beneath.
    case overFullScreen
    /// Covers the controller that defines the presentation context (`definesPresentationContext`).
    case currentContext
    /// Covers the controller that defines the presentation context, which stays visible beneath.
    case overCurrentContext
    /// Drawn by the transitioning delegate.
    case custom
}

/// Animates a custom presentation (`modalPresentationStyle == .custom`).
///
/// As in UIKit, a presentation made during restoration is not animated, so whatever the animation sets
/// up (a dimming overlay, say) must be set again by hand when the controller is restored.
public protocol ViewControllerTransitioningDelegate: AnyObject {
    /// A short name for the transition, for inspection.
    var transitionName: String { get }
    /// Runs the presentation animation of `presented` over `presenting`.
    func animatePresentation(of presented: ViewController, over presenting: ViewController)
}

/// A class that re-creates a view controller during restoration (UIKit's `UIViewControllerRestoration`).
public protocol ViewControllerRestoration: AnyObject {
    /// The controller for `identifierComponents`, or nil to leave it and its subtree out of this restoration.
    ///
    /// - Parameters:
    ///   - identifierComponents: Restoration identifiers from the root to the wanted controller.
    ///   - coder: That controller's saved state; `coder.application` is the application being restored.
    /// - Returns: A new or existing controller; nil skips it and everything below it (no further lookup).
    static func viewController(withRestorationIdentifierPath identifierComponents: [String], coder: StateCoder) -> ViewController?
}
