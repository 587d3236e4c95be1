/// A stack of controllers, the top one shown (`UINavigationController`).
open class NavigationController: ViewController {
    /// Whether the navigation bar is hidden (the seed's check-in modal hides it).
    public var isNavigationBarHidden = false

    /// A navigation controller showing `rootViewController`, if given.
    public init(rootViewController: ViewController? = nil) {
        super.init()
        if let rootViewController { addChild(rootViewController) }
    }

    /// The stack, bottom first.
    public var viewControllers: [ViewController] { children }

    /// The controller on top of the stack.
    public var topViewController: ViewController? { children.last }

    /// Pushes `controller` on the stack.
    public func pushViewController(_ controller: ViewController) { addChild(controller) }

    /// Pops the top controller unless it is the root; returns it.
    @discardableResult
    public func popViewController() -> ViewController? {
        guard children.count > 1, let top = children.last else { return nil }
        top.removeFromParent()
        return top
    }

    /// Replaces the whole stack.
    public func setViewControllers(_ controllers: [ViewController]) {
        let kept = Set(controllers.map(ObjectIdentifier.init))
        for old in children where !kept.contains(ObjectIdentifier(old)) { old.removeFromParent() }
        for (index, controller) in controllers.enumerated() {
            if index < children.count, children[index] === controller { continue }
            controller.removeFromParent()
            insertChild(controller, at: index)
        }
    }
}
