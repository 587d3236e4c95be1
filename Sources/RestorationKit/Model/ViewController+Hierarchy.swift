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
        children.first { $0.restorationIdentifier == identifier }
            ?? presentedViewController.flatMap { $0.restorationIdentifier == identifier ? $0 : nil }
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
    ///
    /// When `child` is not already one of its children this takes constant time: `child` takes the old
    /// one's place in `children` (so callbacks see it there from the old one's `didMove(toParent: nil)`
    /// on), with the callbacks of removing the old one and inserting `child`, in that order.
    func replaceChild(at index: Int, with child: ViewController) {
        let old = children[index]
        guard old !== child else { return }
        guard child.parent !== self else {
            old.removeFromParent()
            return insertChild(child, at: index)
        }
        old.willMove(toParent: nil)
        guard index < children.count, children[index] === old else {
            // The callback moved things: fall back to removing and inserting.
            children.removeAll { $0 === old }
            old.parent = nil
            old.didMove(toParent: nil)
            return insertChild(child, at: index)
        }
        children[index] = child
        old.parent = nil
        old.didMove(toParent: nil)
        if let previous = child.parent {
            child.willMove(toParent: nil)
            previous.children.removeAll { $0 === child }
            child.parent = nil
            child.didMove(toParent: nil)
        }
        child.willMove(toParent: self)
        child.parent = self
        child.didMove(toParent: self)
    }
}
