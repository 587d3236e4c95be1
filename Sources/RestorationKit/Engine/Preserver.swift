/// Walks the window's hierarchy from the root and records every controller that has an identifier.
///
/// A controller without an identifier is skipped together with its children and whatever it presents.
/// Records come parents first: a controller, then its children in order, then what it presents.
///
/// The walk is a loop over a stack, not a recursion, so a chain of 100k presentations cannot overflow
/// the thread's stack; every path is one node of a shared `PathTable`, so a record costs the same
/// at any depth, and class names are computed once per class.
struct Preserver {
    private var records: [ArchivedController] = []
    private var paths = PathTableBuilder()
    private var names = TypeNameCache()

    /// The records for everything under `root`.
    static func records(from root: ViewController?) throws(PreservationError) -> [ArchivedController] {
        var preserver = Preserver()
        if let root { try preserver.walk(from: root) }
        let table = preserver.paths.build()
        var records = preserver.records
        preserver.records = []
        for index in records.indices {
            records[index].location = PathReference(table: table, node: records[index].location.node)
        }
        return records
    }

    private mutating func walk(from root: ViewController) throws(PreservationError) {
        var pending: [(controller: ViewController, parent: Int32)] = [(root, 0)]
        while let (controller, parent) = pending.popLast() {
            guard let identifier = controller.restorationIdentifier else { continue }
            let (node, isNew) = paths.insert(identifier, under: parent)
            let className = names.name(of: type(of: controller))
            guard isNew else {
                // Nodes are records in walk order; node 0 is the empty path.
                throw .duplicatePath(path: paths.path(of: node), firstClass: records[Int(node) - 1].className, secondClass: className)
            }

            var coder = StateCoder()
            // UIKit's view controller saves a reference to the storyboard it came from.
            if let storyboard = controller.storyboard, let id = controller.storyboardIdentifier {
                coder.encode(storyboard.name, forKey: StateCoder.storyboardKey)
                coder.encode(id, forKey: StateCoder.storyboardIdentifierKey)
            }
            controller.encodeRestorableState(with: &coder)
            let children = Self.preservedChildren(of: controller, encoded: coder.encodedControllers)
            records.append(
                ArchivedController(
                    location: PathReference(table: .empty, node: node),
                    className: className,
                    restorationClassName: controller.restorationClass.map { names.name(of: $0) },
                    relationships: Self.relationships(of: controller, children: children),
                    state: coder.values,
                    views: try views(of: controller, at: node)))

            // Popped in reverse: the children in order, each with its subtree, then what it presents.
            if let presented = controller.presentedViewController { pending.append((presented, node)) }
            for child in children.reversed() { pending.append((child, node)) }
        }
    }

    /// The built-in containers' children are preserved automatically; a custom container's only when
    /// it encodes them (`StateCoder.encode(_:forKey:)`), as in UIKit.
    static func preservedChildren(of controller: ViewController, encoded: [ViewController]) -> [ViewController] {
        if isBuiltInContainer(controller) { return controller.children }
        guard !encoded.isEmpty else { return [] }
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(controller)]
        return encoded.filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    /// Navigation and tab bar controllers (and their subclasses).
    static func isBuiltInContainer(_ controller: ViewController) -> Bool {
        controller is NavigationController || controller is TabBarController
    }

    /// The controller's views that have restoration identifiers (only a preserved controller's views
    /// are); a view never loaded has none.
    private mutating func views(of controller: ViewController, at node: Int32) throws(PreservationError) -> [ArchivedView] {
        guard controller.isViewLoaded else { return [] }
        var views: [ArchivedView] = []
        var classes: [String: String] = [:]
        for view in controller.view.restorableViews {
            guard let identifier = view.restorationIdentifier else { continue }
            let className = names.name(of: type(of: view))
            if let first = classes[identifier] {
                throw .duplicatePath(path: paths.path(of: node) + [identifier], firstClass: first, secondClass: className)
            }
            classes[identifier] = className
            var coder = StateCoder()
            view.encodeRestorableState(with: &coder)
            views.append(ArchivedView(identifier: identifier, className: className, state: coder.values))
        }
        return views
    }

    private static func relationships(of controller: ViewController, children: [ViewController]) -> [ArchivedRelationship] {
        let childKind: ArchivedRelationship.Kind = controller is NavigationController ? .pushed : .child
        var relationships: [ArchivedRelationship] = []
        relationships.reserveCapacity(children.count)
        for child in children {
            if let identifier = child.restorationIdentifier { relationships.append(ArchivedRelationship(childKind, identifier)) }
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
