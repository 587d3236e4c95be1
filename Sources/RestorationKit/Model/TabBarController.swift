/// Tabs of controllers, one selected (`UITabBarController`).
open class TabBarController: ViewController {
    /// The index of the selected tab.
    public private(set) var selectedIndex = 0

    /// A tab bar controller with no tabs yet.
    public override init() { super.init() }

    /// The tabs, in order.
    public var viewControllers: [ViewController] { children }

    /// The selected tab's controller.
    public var selectedViewController: ViewController? {
        children.indices.contains(selectedIndex) ? children[selectedIndex] : nil
    }

    /// Replaces the tabs and selects the first.
    public func setViewControllers(_ controllers: [ViewController]) {
        for old in children { old.removeFromParent() }
        for controller in controllers { addChild(controller) }
        selectedIndex = 0
    }

    /// Selects the tab at `index`; returns false when there is no such tab.
    @discardableResult
    public func select(index: Int) -> Bool {
        guard children.indices.contains(index) else { return false }
        selectedIndex = index
        return true
    }

    /// Selects the tab whose restoration identifier is `identifier`; returns false when there is none.
    @discardableResult
    public func select(restorationIdentifier identifier: String) -> Bool {
        guard let index = children.firstIndex(where: { $0.restorationIdentifier == identifier }) else { return false }
        selectedIndex = index
        return true
    }
}
