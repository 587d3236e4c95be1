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
    private var parents: [Int32] = []
    private var identifiers: [String] = []
    private var depths: [Int32] = []
    private var names = TypeNameCache()

    /// Room for `expected` controllers: each array is allocated once instead of growing from empty
    /// (at 10 controllers the growing took a third of preservation's allocations).
    private init(expected: Int) {
        let capacity = max(expected, 15) + 1
        records.reserveCapacity(capacity)
        parents.reserveCapacity(capacity)
        identifiers.reserveCapacity(capacity)
        depths.reserveCapacity(capacity)
        parents.append(0)
        identifiers.append("")
        depths.append(0)
    }

    /// One controller waiting to be recorded, and the earlier sibling with its identifier, if any.
    private struct Pending {
        var controller: ViewController
        var parent: Int32
        var duplicateOf: ViewController?
    }

    /// The records for everything under `root`.
    ///
    /// - Parameter expected: About how many there will be (the last preservation's count, say), to
    ///   allocate for them at once; more or fewer only cost a reallocation.
    static func records(from root: ViewController?, expected: Int = 0) throws(PreservationError) -> [ArchivedController] {
        var preserver = Preserver(expected: expected)
        if let root { try preserver.walk(from: root) }
        let table = PathTable(parents: preserver.parents, identifiers: preserver.identifiers, depths: preserver.depths)
        var records = preserver.records
        preserver.records = []
        for index in records.indices {
            records[index].location = PathReference(table: table, node: records[index].location.node)
        }
        return records
    }

    private mutating func walk(from root: ViewController) throws(PreservationError) {
        var pending: [Pending] = []
        pending.reserveCapacity(16)
        pending.append(Pending(controller: root, parent: 0))
        while let next = pending.popLast() {
            let controller = next.controller
            guard let identifier = controller.restorationIdentifier else { continue }
            let className = names.name(of: type(of: controller))
            if let first = next.duplicateOf {
                throw .duplicatePath(
                    path: path(of: next.parent) + [identifier], firstClass: names.name(of: type(of: first)), secondClass: className)
            }
            let node = Int32(parents.count)
            parents.append(next.parent)
            identifiers.append(identifier)
            depths.append(depths[Int(next.parent)] + 1)

            var coder = StateCoder(capacity: 4)
            // UIKit's view controller saves a reference to the storyboard it came from.
            if let storyboard = controller.storyboard, let id = controller.storyboardIdentifier {
                coder.encode(storyboard.name, forKey: StateCoder.storyboardKey)
                coder.encode(id, forKey: StateCoder.storyboardIdentifierKey)
            }
            controller.encodeRestorableState(with: &coder)
            let children = Self.preservedChildren(of: controller, encoded: coder.encodedControllers)
            let presented = controller.presentedViewController
            // Read once: each read of a class's property is an exclusivity check.
            let childIdentifiers = children.map(\.restorationIdentifier)
            let presentedIdentifier = presented?.restorationIdentifier
            // Every part made before the record, so that the record is moved into the array, not copied.
            let restorationClassName = controller.restorationClass.map { names.name(of: $0) }
            let relationships = Self.relationships(of: controller, children: childIdentifiers, presented: presentedIdentifier)
            let views = try views(of: controller, at: node)
            records.append(
                ArchivedController(
                    location: PathReference(table: .empty, node: node), className: className,
                    restorationClassName: restorationClassName, relationships: relationships, state: coder.storage, views: views))

            // Popped in reverse: the children in order, each with its subtree, then what it presents.
            // Two of them with one identifier would share a path: the second is refused when its turn
            // comes, as a walk that kept every path would find it.
            if children.isEmpty {
                if let presented { pending.append(Pending(controller: presented, parent: node)) }
                continue
            }
            var siblings = children
            var identifiers = childIdentifiers
            if let presented {
                siblings.append(presented)
                identifiers.append(presentedIdentifier)
            }
            let duplicates = Self.earlierSiblings(siblings, identifiers: identifiers)
            for index in siblings.indices.reversed() {
                pending.append(Pending(controller: siblings[index], parent: node, duplicateOf: duplicates?[index]))
            }
        }
    }

    /// For each controller, the first one before it with the same restoration identifier (the
    /// controllers' `identifiers`, in order), if any; nil when no two have the same one.
    private static func earlierSiblings(_ siblings: [ViewController], identifiers: [String?]) -> [ViewController?]? {
        guard siblings.count > 1 else { return nil }
        var earlier: [ViewController?]?
        if siblings.count <= 16 {
            for index in 1..<siblings.count {
                guard let identifier = identifiers[index] else { continue }
                let length = identifier.utf8.count
                guard
                    let first = identifiers[..<index].firstIndex(where: { $0?.utf8.count == length && $0 == identifier })
                else { continue }
                if earlier == nil { earlier = [ViewController?](repeating: nil, count: siblings.count) }
                earlier?[index] = siblings[first]
            }
        } else {
            var seen = StringIndex(expected: siblings.count)
            var firstWith: [Int] = []
            firstWith.reserveCapacity(siblings.count)
            for (index, identifier) in identifiers.enumerated() {
                guard let identifier else { continue }
                let (number, isNew) = seen.number(of: identifier)
                if isNew {
                    firstWith.append(index)
                } else {
                    if earlier == nil { earlier = [ViewController?](repeating: nil, count: siblings.count) }
                    earlier?[index] = siblings[firstWith[number]]
                }
            }
        }
        return earlier
    }

    private func path(of node: Int32) -> [String] {
        PathTable(parents: parents, identifiers: identifiers, depths: depths).path(of: node)
    }

    /// The built-in containers' children are preserved automatically; a custom container's only when
    /// it encodes them (`StateCoder.encode(_:forKey:)`), as in UIKit.
    static func preservedChildren(of controller: ViewController, encoded: [ViewController]) -> [ViewController] {
        if isBuiltInContainer(controller) { return controller.children }
        guard !encoded.isEmpty else { return [] }
        // The usual case: it encoded its children, in order (they are distinct and not itself).
        let children = controller.children
        if encoded.count == children.count, zip(encoded, children).allSatisfy({ $0 === $1 }) { return encoded }
        if encoded.count <= 16 {
            var kept: [ViewController] = []
            for (index, child) in encoded.enumerated() where child !== controller {
                if !encoded[..<index].contains(where: { $0 === child }) { kept.append(child) }
            }
            return kept
        }
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
                throw .duplicatePath(path: path(of: node) + [identifier], firstClass: first, secondClass: className)
            }
            classes[identifier] = className
            var coder = StateCoder()
            view.encodeRestorableState(with: &coder)
            views.append(ArchivedView(identifier: identifier, className: className, state: coder.storage))
        }
        return views
    }

    /// Its children (by their identifiers, in order), a tab bar's selected tab, and what it presents.
    private static func relationships(of controller: ViewController, children: [String?], presented: String?) -> [ArchivedRelationship] {
        var relationships: [ArchivedRelationship] = []
        if !children.isEmpty {
            let childKind: ArchivedRelationship.Kind = controller is NavigationController ? .pushed : .child
            relationships.reserveCapacity(children.count + 2)
            for identifier in children {
                if let identifier { relationships.append(ArchivedRelationship(childKind, identifier)) }
            }
            if let tabs = controller as? TabBarController, let selected = tabs.selectedViewController?.restorationIdentifier {
                relationships.append(ArchivedRelationship(.selectedTab, selected))
            }
        }
        if let presented { relationships.append(ArchivedRelationship(.presented, presented)) }
        return relationships
    }
}
