/// Containment and presentation, as UIKit's view controller API offers them.
extension ViewController {
    /// Adds `child` at the end of `children`, moving it from its old container.
    public func addChild(_ child: ViewController) {
        insertChild(child, at: children.count)
    }

    /// Removes it from its container.
    public func removeFromParent() {
        guard let parent else { return }
        willMove(toParent: nil)
        parent.children.removeAll { $0 === self }
        self.parent = nil
        didMove(toParent: nil)
    }

    /// Presents `controller` over this one.
    ///
    /// - Parameters:
    ///   - controller: What to present; it must not be presented or contained already.
    ///   - animated: Whether the presentation animates; only an animated `.custom` presentation asks
    ///     the transitioning delegate to animate it.
    /// - Returns: False (nothing done) when this controller already presents another one or
    ///   `controller` is already presented or contained, as UIKit refuses with a warning.
    ///
    /// A `.currentContext` or `.overCurrentContext` presentation is made by the nearest controller, from
    /// this one up through its parents, that `definesPresentationContext` (else the top of the chain):
    /// that controller becomes the presenter, as in UIKit.
    @discardableResult
    public func present(_ controller: ViewController, animated: Bool) -> Bool {
        let style = controller.modalPresentationStyle
        let presenter = style == .currentContext || style == .overCurrentContext ? presentationContext : self
        guard presenter.presentedViewController == nil, controller.presentingViewController == nil,
            controller.parent == nil, controller !== presenter
        else { return false }
        presenter.presentedViewController = controller
        controller.presentingViewController = presenter
        if animated, style == .custom, let delegate = controller.transitioningDelegate {
            delegate.animatePresentation(of: controller, over: presenter)
        }
        return true
    }

    /// The controller a current-context presentation from this one is made by.
    public var presentationContext: ViewController {
        var current = self
        while !current.definesPresentationContext, let parent = current.parent { current = parent }
        return current
    }

    /// Dismisses what this controller presents or, when it presents nothing, itself.
    public func dismiss() {
        if let presented = presentedViewController {
            presented.presentingViewController = nil
            presentedViewController = nil
        } else {
            presentingViewController?.dismiss()
        }
    }

    /// The first of its children and presented controller whose restoration identifier is `identifier`.
    public func descendant(withRestorationIdentifier identifier: String) -> ViewController? {
        let candidates = children + [presentedViewController].compactMap { $0 }
        return candidates.first { $0.restorationIdentifier == identifier }
    }

    /// Puts `child` at `index`, replacing nothing.
    func insertChild(_ child: ViewController, at index: Int) {
        if child.parent === self { return }
        child.removeFromParent()
        child.willMove(toParent: self)
        children.insert(child, at: min(index, children.count))
        child.parent = self
        child.didMove(toParent: self)
    }

    /// Replaces the child at `index` with `child`.
    func replaceChild(at index: Int, with child: ViewController) {
        let old = children[index]
        guard old !== child else { return }
        old.removeFromParent()
        insertChild(child, at: index)
    }
}
