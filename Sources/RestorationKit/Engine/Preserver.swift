/// Walks the window's hierarchy from the root and records every controller that has an identifier.
///
/// A controller without an identifier is skipped together with its children and whatever it presents.
/// Records come parents first: a controller, then its children in order, then what it presents.
struct Preserver {
    private var records: [ArchivedController] = []
    private var classesByPath: [[String]: String] = [:]

    /// The records for everything under `root`.
    static func records(from root: ViewController?) throws(PreservationError) -> [ArchivedController] {
        var preserver = Preserver()
        if let root { try preserver.visit(root, parentPath: []) }
        return preserver.records
    }

    private mutating func visit(_ controller: ViewController, parentPath: [String]) throws(PreservationError) {
        guard let identifier = controller.restorationIdentifier else { return }
        let path = parentPath + [identifier]
        if let first = classesByPath[path] {
            throw .duplicatePath(path: path, firstClass: first, secondClass: controller.className)
        }
        classesByPath[path] = controller.className

        var coder = StateCoder()
        // UIKit's view controller saves a reference to the storyboard it came from.
        if let storyboard = controller.storyboard, let id = controller.storyboardIdentifier {
            coder.encode(storyboard.name, forKey: StateCoder.storyboardKey)
            coder.encode(id, forKey: StateCoder.storyboardIdentifierKey)
        }
        controller.encodeRestorableState(with: &coder)
        records.append(
            ArchivedController(
                path: path,
                className: controller.className,
                restorationClassName: controller.restorationClass.map(RestorationRegistry.name(of:)),
                relationships: Self.relationships(of: controller, encoded: coder.encodedControllers),
                state: coder.values,
                views: try Self.views(of: controller, at: path)))

        for child in Self.preservedChildren(of: controller, encoded: coder.encodedControllers) {
            try visit(child, parentPath: path)
        }
        if let presented = controller.presentedViewController { try visit(presented, parentPath: path) }
    }

    /// The built-in containers' children are preserved automatically; a custom container's only when
    /// it encodes them (`StateCoder.encode(_:forKey:)`), as in UIKit.
    static func preservedChildren(of controller: ViewController, encoded: [ViewController]) -> [ViewController] {
        if isBuiltInContainer(controller) { return controller.children }
        var seen: [ObjectIdentifier] = []
        return encoded.filter { child in
            guard child !== controller, !seen.contains(ObjectIdentifier(child)) else { return false }
            seen.append(ObjectIdentifier(child))
            return true
        }
    }

    /// Navigation and tab bar controllers (and their subclasses).
    static func isBuiltInContainer(_ controller: ViewController) -> Bool {
        controller is NavigationController || controller is TabBarController
    }

    /// The controller's views that have restoration identifiers (only a preserved controller's views are).
    private static func views(of controller: ViewController, at path: [String]) throws(PreservationError) -> [ArchivedView] {
        var views: [ArchivedView] = []
        var classes: [String: String] = [:]
        for view in controller.view.restorableViews {
            guard let identifier = view.restorationIdentifier else { continue }
            let className = String(reflecting: type(of: view))
            if let first = classes[identifier] {
                throw .duplicatePath(path: path + [identifier], firstClass: first, secondClass: className)
            }
            classes[identifier] = className
            var coder = StateCoder()
            view.encodeRestorableState(with: &coder)
            views.append(ArchivedView(identifier: identifier, className: className, state: coder.values))
        }
        return views
    }

    private static func relationships(of controller: ViewController, encoded: [ViewController]) -> [ArchivedRelationship] {
        let childKind: ArchivedRelationship.Kind = controller is NavigationController ? .pushed : .child
        var relationships = preservedChildren(of: controller, encoded: encoded).compactMap { child in
            child.restorationIdentifier.map { ArchivedRelationship(childKind, $0) }
        }
        if let tabs = controller as? TabBarController, let selected = tabs.selectedViewController?.restorationIdentifier {
            relationships.append(ArchivedRelationship(.selectedTab, selected))
        }
        if let presented = controller.presentedViewController?.restorationIdentifier {
            relationships.append(ArchivedRelationship(.presented, presented))
        }
        return relationships
    }
}

