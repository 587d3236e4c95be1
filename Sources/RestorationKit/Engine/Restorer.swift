/// Rebuilds the hierarchy from an archive in UIKit's order.
///
/// 1. Find or create every saved path, parents first: the restoration class (nil skips it and its
///    subtree), else the app delegate (nil: keep looking), else an existing controller at that path,
///    else the storyboard it came from (by its storyboard id), else a registered scene.
/// 2. Parents first: re-link navigation and tab bar controllers (stacks, tabs, the selected tab), and
///    decode each controller's state unless its class differs from the saved one (a custom container
///    adds back, in its decode, the children it encoded), then its views.
/// 3. Present again what was presented, if the presenter is in the window (not animated).
/// 4. Objects other than controllers and views.
/// 5. `applicationFinishedRestoringState()` on every controller whose state was decoded: UIKit sends it
///    "after all objects have had a chance to decode their state" to the objects that took part in
///    decoding, and a controller of another class than the saved one never gets its state.
/// 6. `settle()`, at the end of the launch: only controllers that reached the window count as restored.
///
/// Every step is linear in the number of controllers, whatever the hierarchy's shape: paths are
/// nodes of one table (numbers, not arrays of strings), a parent finds a child by a hash of its
/// identifier, and "is it in the window" is answered from one walk down from the root.
struct Restorer {
    let application: Application
    let archive: RestorationArchive
    /// One node per distinct saved path.
    private let paths: PathTable
    /// The node of each controller record, in archive order.
    private let recordNodes: [Int32]
    /// A node's child by identifier, for relationships and objects.
    private let lookup: PathTableBuilder
    /// What was found for each node.
    private var found: [ViewController?]
    /// Whether a controller found for the node had the saved class (so its state is decoded).
    private var decodedNodes: [Bool]
    private var report = RestorationReport()
    private var names = TypeNameCache()
    /// The path of the last record looked up, handed to restoration classes and the app delegate.
    private var pathStack: [String] = []
    private var pathStackNodes: [Int32] = []
    /// Indexes of a parent's children by identifier, valid while its children do not change.
    private var childIndexes: [ObjectIdentifier: ChildIndex] = [:]

    init(application: Application, archive: RestorationArchive) {
        self.application = application
        self.archive = archive
        var builder = PathTableBuilder(capacity: archive.controllers.count)
        var nodes: [Int32] = []
        nodes.reserveCapacity(archive.controllers.count)
        // Canonical nodes for the records' own tables (usually all one table), each node once.
        var canonical: [ObjectIdentifier: [Int32]] = [:]
        for record in archive.controllers {
            let table = record.location.table
            var memo = canonical.removeValue(forKey: ObjectIdentifier(table)) ?? [Int32](repeating: -1, count: table.parents.count)
            memo[0] = 0
            nodes.append(Self.canonicalNode(record.location.node, of: table, memo: &memo, builder: &builder))
            canonical[ObjectIdentifier(table)] = memo
        }
        paths = builder.build()
        lookup = builder
        recordNodes = nodes
        found = Array(repeating: nil, count: builder.count)
        decodedNodes = Array(repeating: false, count: builder.count)
    }

    /// The node of `node` of `table` in `builder`, adding it and the prefixes not yet there.
    private static func canonicalNode(_ node: Int32, of table: PathTable, memo: inout [Int32], builder: inout PathTableBuilder) -> Int32 {
        var unknown: [Int32] = []
        var current = node
        while memo[Int(current)] < 0 {
            unknown.append(current)
            current = table.parents[Int(current)]
        }
        var canonical = memo[Int(current)]
        while let next = unknown.popLast() {
            canonical = builder.insert(table.identifiers[Int(next)], under: canonical).node
            memo[Int(next)] = canonical
        }
        return canonical
    }

    /// Steps 1 to 5.
    mutating func run() {
        for index in archive.controllers.indices { find(index) }
        // Parents first: a built-in container is re-linked, then the controller decodes (where a
        // custom container adds back the children it encoded), then its views.
        var decodedViews: [View] = []
        for (index, record) in archive.controllers.enumerated() {
            let node = recordNodes[index]
            guard let controller = found[Int(node)] else { continue }
            relinkChildren(of: record, at: node)
            guard decodedNodes[Int(node)] else { continue }
            var coder = StateCoder(values: record.state, application: application)
            coder.restoredChildren = restoredChildren(of: record, at: node)
            controller.decodeRestorableState(with: coder)
            if !record.views.isEmpty { decodedViews += decodeViews(of: controller, from: record) }
        }
        var inWindow = WindowMembership(root: application.window.rootViewController)
        for (index, record) in archive.controllers.enumerated() where found[Int(recordNodes[index])] != nil {
            presentAgain(from: record, at: recordNodes[index], inWindow: &inWindow)
        }
        let objects = restoreObjects()
        for node in recordNodes where decodedNodes[Int(node)] { found[Int(node)]?.applicationFinishedRestoringState() }
        for view in decodedViews { view.applicationFinishedRestoringState() }
        for object in objects { object.applicationFinishedRestoringState() }
    }

    /// Finds (registered at launch) or creates (object restoration class) each saved object whose
    /// parent came back, and decodes it; parents first.
    private mutating func restoreObjects() -> [any StateRestoring] {
        var restoredObjects: [[String]: any StateRestoring] = [:]
        var decoded: [any StateRestoring] = []
        for record in archive.objects {
            let name = record.path.joined(separator: "/")
            let parentPath = Array(record.path.dropLast())
            let parentFound = lookup.node(path: parentPath).map { found[Int($0)] != nil } ?? false
            guard parentPath.isEmpty || parentFound || restoredObjects[parentPath] != nil else {
                report.notes.append("object \(name) is not restored: its restoration parent was not")
                continue
            }
            let coder = StateCoder(values: record.state, application: application)
            let object: (any StateRestoring)?
            if let className = record.restorationClassName {
                object = application.registry.objectRestorationClass(named: className)?
                    .object(withRestorationIdentifierPath: record.path, coder: coder)
            } else {
                object = application.registeredObjects.lazy.compactMap(\.object)
                    .first { application.restorationPath(ofObject: $0) == record.path }
            }
            guard let object else {
                report.notes.append("object \(name) is not restored: nothing registered or made it")
                continue
            }
            object.decodeRestorableState(with: coder)
            restoredObjects[record.path] = object
            report.restoredObjects.append(record.path)
            decoded.append(object)
        }
        return decoded
    }

    /// Decodes the saved views of a decoded controller into its views of the same identifier and class.
    private mutating func decodeViews(of controller: ViewController, from record: ArchivedController) -> [View] {
        let current = controller.view.restorableViews
        var decoded: [View] = []
        for saved in record.views {
            guard let view = current.first(where: { $0.restorationIdentifier == saved.identifier }) else {
                report.notes.append("\((record.path + [saved.identifier]).joined(separator: "/")): no such view now; its state is not restored")
                continue
            }
            let className = names.name(of: type(of: view))
            guard className == saved.className else {
                report.notes.append(
                    "\((record.path + [saved.identifier]).joined(separator: "/")): saved as \(saved.className) but now "
                        + "\(className); its state is not decoded")
                continue
            }
            view.decodeRestorableState(with: StateCoder(values: saved.state, application: application))
            decoded.append(view)
        }
        return decoded
    }

    /// The report, with every controller that is not in the window's hierarchy now moved from
    /// `restored` to `skipped` (`notInWindow`): only what the user can reach was restored.
    mutating func settle() -> RestorationReport {
        let inWindow = WindowMembership(root: application.window.rootViewController)
        var settled = report
        settled.restored = []
        settled.restored.reserveCapacity(report.restored.count)
        var kept = [Bool](repeating: false, count: found.count)
        for entry in report.restored {
            let node = Int(entry.location.node)
            if let controller = found[node], inWindow.contains(controller) {
                settled.restored.append(entry)
                kept[node] = true
            } else {
                settled.skipped.append(.init(location: entry.location, reason: .notInWindow))
            }
        }
        settled.presentedLocations = report.presentedLocations.filter { kept[Int($0.node)] }
        return settled
    }

    private func reference(_ node: Int32) -> PathReference { PathReference(table: paths, node: node) }

    // MARK: 1. Find

    private mutating func find(_ index: Int) {
        let record = archive.controllers[index]
        let node = recordNodes[index]
        guard node != 0 else { return skip(node, .emptyPath) }
        let identifier = paths.identifiers[Int(node)]
        let parent = paths.parents[Int(node)]
        if parent != 0, found[Int(parent)] == nil {
            return skip(node, .ancestorSkipped)
        }
        let path = path(of: node)
        let coder = StateCoder(values: record.state, application: application)
        let controller: ViewController
        let via: RestorationReport.Via
        if let name = record.restorationClassName {
            guard let restorationClass = application.registry.restorationClass(named: name) else {
                return skip(node, .restorationClassNotRegistered(name))
            }
            guard let made = restorationClass.viewController(withRestorationIdentifierPath: path, coder: coder) else {
                return skip(node, .restorationClassReturnedNil)
            }
            (controller, via) = (made, .restorationClass)
        } else if let made = application.delegate?.application(
            application, viewControllerWithRestorationIdentifierPath: path, coder: coder)
        {
            (controller, via) = (made, .appDelegate)
        } else if let existing = existingController(identifier, under: parent) {
            (controller, via) = (existing, .existing)
        } else if let made = storyboardController(coder: coder) {
            (controller, via) = (made, .storyboard)
        } else if let made = application.registry.instantiateScene(identifier) {
            (controller, via) = (made, .storyboard)
        } else {
            return skip(node, .notFound)
        }
        let className = names.name(of: type(of: controller))
        let decoded = className == record.className
        if !decoded {
            report.notes.append(
                "\(path.joined(separator: "/")): saved as \(record.className) but restored as "
                    + "\(className); its state is not decoded")
        }
        if controller.restorationIdentifier != identifier {
            report.notes.append(
                "\(path.joined(separator: "/")) came back with restoration identifier "
                    + (controller.restorationIdentifier.map { "'\($0)'" } ?? "nil")
                    + " instead of '\(identifier)'; the next preservation will not save it under this path")
        }
        found[Int(node)] = controller
        if decoded { decodedNodes[Int(node)] = true }
        report.restored.append(.init(location: reference(node), via: via, decoded: decoded))
    }

    /// The path of `node` as an array, kept from one record to the next: records come parents first,
    /// so it usually only loses its tail and gains one identifier. A callee that keeps the array
    /// gets its own copy when this one next changes.
    private mutating func path(of node: Int32) -> [String] {
        let depth = Int(paths.depths[Int(node)])
        let parent = paths.parents[Int(node)]
        if depth - 1 <= pathStackNodes.count, depth == 1 || pathStackNodes[depth - 2] == parent {
            pathStack.removeLast(pathStack.count - (depth - 1))
            pathStackNodes.removeLast(pathStackNodes.count - (depth - 1))
            pathStack.append(paths.identifiers[Int(node)])
            pathStackNodes.append(node)
        } else {
            pathStack = paths.path(of: node)
            pathStackNodes = []
            var current = node
            while current != 0 {
                pathStackNodes.append(current)
                current = paths.parents[Int(current)]
            }
            pathStackNodes.reverse()
        }
        return pathStack
    }

    /// UIKit's last step: instantiate from the storyboard the controller came from, by its storyboard id.
    private func storyboardController(coder: StateCoder) -> ViewController? {
        guard let storyboard = coder.storyboard, let id = coder.decodeString(forKey: StateCoder.storyboardIdentifierKey) else {
            return nil
        }
        return storyboard.instantiateViewController(withIdentifier: id)
    }

    /// The root when it has `identifier`, or the first child (else the presented controller) of the
    /// parent's controller with `identifier`.
    private mutating func existingController(_ identifier: String, under parent: Int32) -> ViewController? {
        guard parent != 0 else {
            let root = application.window.rootViewController
            return root?.restorationIdentifier == identifier ? root : nil
        }
        guard let container = found[Int(parent)] else { return nil }
        if let index = childIndex(of: container).first[identifier] { return container.children[index] }
        let presented = container.presentedViewController
        return presented?.restorationIdentifier == identifier ? presented : nil
    }

    /// The index of `container`'s children by identifier, made again only when they changed.
    private mutating func childIndex(of container: ViewController) -> ChildIndex {
        let key = ObjectIdentifier(container)
        if let index = childIndexes[key], index.version == container.childrenVersion { return index }
        let index = ChildIndex(container)
        childIndexes[key] = index
        return index
    }

    private mutating func skip(_ node: Int32, _ reason: RestorationReport.SkipReason) {
        report.skipped.append(.init(location: reference(node), reason: reason))
    }

    // MARK: 2. Re-link containers

    /// The restored controllers a record names as children, by identifier.
    private func restoredChildren(of record: ArchivedController, at node: Int32) -> [String: ViewController] {
        var children: [String: ViewController] = [:]
        for relationship in record.relationships where relationship.kind == .child || relationship.kind == .pushed {
            children[relationship.identifier] = lookup.node(relationship.identifier, under: node).flatMap { found[Int($0)] }
        }
        return children
    }

    /// Re-links a navigation or tab bar controller's children and selected tab; a custom container
    /// does that itself in its decode, from the references it encoded.
    private mutating func relinkChildren(of record: ArchivedController, at node: Int32) {
        guard let container = found[Int(node)], Preserver.isBuiltInContainer(container) else { return }
        var children: [(identifier: String, controller: ViewController)] = []
        for relationship in record.relationships where relationship.kind == .child || relationship.kind == .pushed {
            if let child = lookup.node(relationship.identifier, under: node).flatMap({ found[Int($0)] }) {
                children.append((relationship.identifier, child))
            }
        }
        if let navigation = container as? NavigationController {
            if !children.isEmpty { navigation.setViewControllers(children.map(\.controller)) }
        } else {
            var index = ChildIndex(container)
            for (identifier, child) in children {
                if index.version != container.childrenVersion { index = ChildIndex(container) }
                let before = container.childrenVersion
                if let position = index.first[identifier] {
                    container.replaceChild(at: position, with: child)
                    // One change, in the same place, to a child of the same identifier: the index holds.
                    if container.childrenVersion == before + 1, child.restorationIdentifier == identifier,
                        container.children[position] === child
                    {
                        index.version = container.childrenVersion
                    }
                } else {
                    container.addChild(child)
                    if container.childrenVersion == before + 1, container.children.last === child {
                        index.appended(child, at: container.children.count - 1)
                    }
                }
            }
        }
        if let tabs = container as? TabBarController,
            let selected = record.relationships.last(where: { $0.kind == .selectedTab })
        {
            tabs.select(restorationIdentifier: selected.identifier)
        }
    }

    // MARK: 3. Present again

    private mutating func presentAgain(from record: ArchivedController, at node: Int32, inWindow: inout WindowMembership) {
        guard let relationship = record.relationships.first(where: { $0.kind == .presented }),
            let presentedNode = lookup.node(relationship.identifier, under: node),
            let presented = found[Int(presentedNode)]
        else { return }
        guard let presenter = found[Int(node)] else { return }
        guard inWindow.contains(presenter) else {
            report.notes.append(
                "\(paths.path(of: presentedNode).joined(separator: "/")) is not presented again: its presenter is not in "
                    + "the window's hierarchy (set window.rootViewController while the root is restored)")
            return
        }
        if presenter.presentedViewController === presented {
            report.presentedLocations.append(reference(presentedNode))
        } else if presenter.present(presented, animated: false) {
            inWindow.add(presented)
            report.presentedLocations.append(reference(presentedNode))
        } else {
            report.notes.append(
                "\(paths.path(of: presentedNode).joined(separator: "/")) is not presented again: its presenter already "
                    + "presents another controller")
        }
    }
}

/// A container's children by restoration identifier (the first of each), for one version of them.
struct ChildIndex {
    var first: [String: Int] = [:]
    var version: Int

    init(_ container: ViewController) {
        version = container.childrenVersion
        first.reserveCapacity(container.children.count)
        for (index, child) in container.children.enumerated() {
            if let identifier = child.restorationIdentifier, first[identifier] == nil { first[identifier] = index }
        }
    }

    /// Takes in a child just appended at `index`.
    mutating func appended(_ child: ViewController, at index: Int) {
        if let identifier = child.restorationIdentifier, first[identifier] == nil { first[identifier] = index }
        version += 1
    }
}

/// The controllers in the window's hierarchy (reachable from its root through children and
/// presentations), found by one walk instead of one walk up per question.
struct WindowMembership {
    private var members: Set<ObjectIdentifier> = []

    init(root: ViewController?) {
        if let root { add(root) }
    }

    func contains(_ controller: ViewController) -> Bool { members.contains(ObjectIdentifier(controller)) }

    /// Adds `controller` and everything below it.
    mutating func add(_ controller: ViewController) {
        var pending = [controller]
        while let next = pending.popLast() {
            guard members.insert(ObjectIdentifier(next)).inserted else { continue }
            pending += next.children
            if let presented = next.presentedViewController { pending.append(presented) }
        }
    }
}
