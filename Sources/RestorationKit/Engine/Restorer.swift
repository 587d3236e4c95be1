internal import Synchronization

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
/// nodes of one table (numbers, not arrays of strings), a parent finds its children's nodes in the
/// order its relationships name them (a hash only when they do not match), and "is it in the
/// window" is answered from one walk down from the root that marks what it reaches.
struct Restorer {
    let application: Application
    let archive: RestorationArchive
    /// One node per saved path: the records' own table when they share one (preservation and
    /// decoding make one per archive), else one made from their paths.
    private let paths: PathTable
    /// The node of each controller record, in archive order.
    private let recordNodes: [Int32]
    /// Each node's child nodes, in node order: `childList[childStart[node]..<childStart[node + 1]]`.
    private let childStart: [Int32]
    private let childList: [Int32]
    /// A node's child by identifier, made the first time a child is not where the order says.
    private var childrenByName: [PathKey: Int32]?
    /// What restoration knows of each node.
    private var nodes: [NodeState]

    private struct NodeState {
        /// The controller found for it.
        var found: ViewController?
        /// Whether that controller had the saved class (so its state is decoded).
        var decoded = false
        /// Which record last named the node as a child, to notice one named twice without hashing.
        var seen: Int32 = 0
    }
    private var report = RestorationReport()
    private var names = TypeNameCache()
    /// The path of the last record looked up, handed to restoration classes and the app delegate.
    private var pathStack: [String] = []
    private var pathStackNodes: [Int32] = []
    /// Indexes of a parent's children by identifier, valid while its children do not change.
    private var childIndexes: [ObjectIdentifier: ChildIndex] = [:]
    /// The restoration classes looked up so far (records share a few): the registry is a dictionary
    /// in a copy-on-write struct, so each lookup there hashes the name and retains four tables.
    private var restorationClasses: [(name: String, type: any ViewControllerRestoration.Type)] = []

    private struct PathKey: Hashable {
        var parent: Int32
        var identifier: String
    }

    init(application: Application, archive: RestorationArchive) {
        self.application = application
        self.archive = archive
        if let shared = archive.controllers.first?.location.table,
            archive.controllers.allSatisfy({ $0.location.table === shared })
        {
            paths = shared
            recordNodes = archive.controllers.map(\.location.node)
        } else {
            // Records of several tables (made by hand, or edited): one node per distinct path.
            var builder = PathTableBuilder(capacity: archive.controllers.count)
            var nodes: [Int32] = []
            nodes.reserveCapacity(archive.controllers.count)
            var canonical: [ObjectIdentifier: [Int32]] = [:]
            for record in archive.controllers {
                let table = record.location.table
                var memo = canonical.removeValue(forKey: ObjectIdentifier(table)) ?? [Int32](repeating: -1, count: table.parents.count)
                memo[0] = 0
                nodes.append(Self.canonicalNode(record.location.node, of: table, memo: &memo, builder: &builder))
                canonical[ObjectIdentifier(table)] = memo
            }
            paths = builder.build()
            recordNodes = nodes
        }
        // Children by parent, in node order (a counting sort, in place).
        let count = paths.parents.count
        var start = [Int32](repeating: 0, count: count + 1)
        for node in 1..<max(count, 1) { start[Int(paths.parents[node]) + 1] += 1 }
        for node in 0..<count { start[node + 1] += start[node] }
        var list = [Int32](repeating: 0, count: max(count - 1, 0))
        for node in 1..<max(count, 1) {
            let parent = Int(paths.parents[node])
            list[Int(start[parent])] = Int32(node)
            start[parent] += 1
        }
        // Each start moved to the next one's: move them back.
        for node in stride(from: count, to: 0, by: -1) { start[node] = start[node - 1] }
        start[0] = 0
        childStart = start
        childList = list
        nodes = Array(repeating: NodeState(), count: count)
        // Allocated once, not grown from empty: usually every record is restored.
        report.restored.reserveCapacity(archive.controllers.count)
        pathStack.reserveCapacity(8)
        pathStackNodes.reserveCapacity(8)
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
            canonical = builder.insert(table.identifiers[Int(next)], under: canonical)
            memo[Int(next)] = canonical
        }
        return canonical
    }

    /// The child node of `parent` named `identifier`; `position` is where the record's relationships
    /// put it among the children (preservation makes them in that order), tried first.
    private mutating func child(_ identifier: String, of parent: Int32, position: Int) -> Int32? {
        let first = Int(childStart[Int(parent)])
        let end = Int(childStart[Int(parent) + 1])
        if position < end - first {
            let candidate = childList[first + position]
            if paths.identifiers[Int(candidate)] == identifier { return candidate }
        }
        if end - first <= 8 {
            for index in first..<end where paths.identifiers[Int(childList[index])] == identifier { return childList[index] }
            return nil
        }
        if childrenByName == nil {
            var table: [PathKey: Int32] = Dictionary(minimumCapacity: paths.parents.count)
            for node in 1..<paths.parents.count {
                let key = PathKey(parent: paths.parents[node], identifier: paths.identifiers[node])
                if table[key] == nil { table[key] = Int32(node) }
            }
            childrenByName = table
        }
        return childrenByName?[PathKey(parent: parent, identifier: identifier)]
    }

    /// The node of a whole path, if it is one.
    private mutating func node(ofPath path: [String]) -> Int32? {
        var node: Int32 = 0
        for identifier in path {
            guard let next = child(identifier, of: node, position: .max) else { return nil }
            node = next
        }
        return node
    }

    /// Steps 1 to 5.
    mutating func run() {
        for index in archive.controllers.indices { find(index) }
        // Parents first: a built-in container is re-linked, then the controller decodes (where a
        // custom container adds back the children it encoded), then its views.
        var decodedViews: [View] = []
        for index in archive.controllers.indices {
            let node = recordNodes[index]
            guard let controller = nodes[Int(node)].found else { continue }
            let (children, distinct) = restoredChildren(of: index, at: node)
            relinkChildren(of: index, at: node, children: children, distinct: distinct)
            guard nodes[Int(node)].decoded else { continue }
            var coder = StateCoder(storage: archive.controllers[index].stateValues, application: application)
            if !children.isEmpty { coder.restoredChildren = RestoredChildren(children, distinct: distinct) }
            controller.decodeRestorableState(with: coder)
            if !archive.controllers[index].views.isEmpty { decodedViews += decodeViews(of: controller, from: archive.controllers[index]) }
        }
        let inWindow = WindowMembership(root: application.window.rootViewController)
        for index in archive.controllers.indices where nodes[Int(recordNodes[index])].found != nil {
            presentAgain(from: index, at: recordNodes[index], inWindow: inWindow)
        }
        let objects = restoreObjects()
        for node in recordNodes where nodes[Int(node)].decoded { nodes[Int(node)].found?.applicationFinishedRestoringState() }
        for view in decodedViews { view.applicationFinishedRestoringState() }
        for object in objects { object.applicationFinishedRestoringState() }
    }

    /// Finds (registered at launch) or creates (object restoration class) each saved object whose
    /// parent came back, and decodes it; parents first.
    private mutating func restoreObjects() -> [any StateRestoring] {
        var restoredObjects: [[String]: any StateRestoring] = [:]
        // The nodes of restored objects whose records share the controllers' table (decoded ones do).
        var restoredObjectNodes: Set<Int32> = []
        var restoredByPathOnly = false
        var decoded: [any StateRestoring] = []
        for record in archive.objects {
            let shared = record.location.table === paths
            if shared {
                // Whether the parent came back, by node: no path is built for an object that is not
                // restored, so a forged archive of many objects under one deep path costs a step each.
                let parent = paths.parents[Int(record.location.node)]
                let parentBack = parent == 0 || nodes[Int(parent)].found != nil || restoredObjectNodes.contains(parent)
                guard parentBack || restoredByPathOnly else {
                    report.notes.append("object \(Self.name(of: record.location)) is not restored: its restoration parent was not")
                    continue
                }
            }
            // Built once per record (a decoded record keeps only its node).
            let path = record.path
            let name = path.joined(separator: "/")
            let parentPath = Array(path.dropLast())
            let parentFound = node(ofPath: parentPath).map { nodes[Int($0)].found != nil } ?? false
            guard parentPath.isEmpty || parentFound || restoredObjects[parentPath] != nil
                || (shared && restoredObjectNodes.contains(paths.parents[Int(record.location.node)]))
            else {
                report.notes.append("object \(name) is not restored: its restoration parent was not")
                continue
            }
            let coder = StateCoder(values: record.state, application: application)
            let object: (any StateRestoring)?
            if let className = record.restorationClassName {
                object = application.registry.objectRestorationClass(named: className)?
                    .object(withRestorationIdentifierPath: path, coder: coder)
            } else {
                object = application.registeredObjects.lazy.compactMap(\.object)
                    .first { application.restorationPath(ofObject: $0) == path }
            }
            guard let object else {
                report.notes.append("object \(name) is not restored: nothing registered or made it")
                continue
            }
            object.decodeRestorableState(with: coder)
            restoredObjects[path] = object
            if shared { restoredObjectNodes.insert(record.location.node) } else { restoredByPathOnly = true }
            report.restoredObjects.append(path)
            decoded.append(object)
        }
        return decoded
    }

    /// A path for a note: whole, or past 64 identifiers its depth and last 8 (a note is not worth
    /// the memory of a forged path a million identifiers deep).
    private static func name(of location: PathReference) -> String {
        guard location.depth > 64 else { return location.path.joined(separator: "/") }
        var last: [String] = []
        var node = Int(location.node)
        while last.count < 8 {
            last.append(location.table.identifiers[node])
            node = Int(location.table.parents[node])
        }
        return "…(\(location.depth - 8) more)/" + last.reversed().joined(separator: "/")
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
            view.decodeRestorableState(with: StateCoder(storage: saved.stateValues, application: application))
            decoded.append(view)
        }
        return decoded
    }

    /// The report, with every controller that is not in the window's hierarchy now moved from
    /// `restored` to `skipped` (`notInWindow`): only what the user can reach was restored.
    mutating func settle() -> RestorationReport {
        let inWindow = WindowMembership(root: application.window.rootViewController)
        // Usually everything restored is in the window: the report stands as it is.
        let allInWindow = report.restored.allSatisfy { entry in
            nodes[Int(entry.location.node)].found.map(inWindow.contains) ?? false
        }
        if allInWindow { return report }
        var settled = report
        settled.restored = []
        settled.restored.reserveCapacity(report.restored.count)
        var kept = [Bool](repeating: false, count: nodes.count)
        for entry in report.restored {
            let node = Int(entry.location.node)
            if let controller = nodes[node].found, inWindow.contains(controller) {
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
        let node = recordNodes[index]
        guard node != 0 else { return skip(node, .emptyPath) }
        let identifier = paths.identifiers[Int(node)]
        let parent = paths.parents[Int(node)]
        if parent != 0, nodes[Int(parent)].found == nil {
            return skip(node, .ancestorSkipped)
        }
        let path = path(of: node)
        let coder = StateCoder(storage: archive.controllers[index].stateValues, application: application)
        let controller: ViewController
        let via: RestorationReport.Via
        if let name = archive.controllers[index].restorationClassName {
            guard let restorationClass = restorationClass(named: name) else {
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
        let decoded = className == archive.controllers[index].className
        if !decoded {
            report.notes.append(
                "\(path.joined(separator: "/")): saved as \(archive.controllers[index].className) but restored as "
                    + "\(className); its state is not decoded")
        }
        if controller.restorationIdentifier != identifier {
            report.notes.append(
                "\(path.joined(separator: "/")) came back with restoration identifier "
                    + (controller.restorationIdentifier.map { "'\($0)'" } ?? "nil")
                    + " instead of '\(identifier)'; the next preservation will not save it under this path")
        }
        nodes[Int(node)].found = controller
        if decoded { nodes[Int(node)].decoded = true }
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

    /// The registered restoration class of that name, looked up in the registry once per name.
    private mutating func restorationClass(named name: String) -> (any ViewControllerRestoration.Type)? {
        for entry in restorationClasses where entry.name == name { return entry.type }
        guard let found = application.registry.restorationClass(named: name) else { return nil }
        if restorationClasses.count < 8 { restorationClasses.append((name, found)) }
        return found
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
        guard let container = nodes[Int(parent)].found else { return nil }
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

    /// The controllers a record names as children or pushed controllers, in order (nil: not restored),
    /// and whether their nodes are distinct (so, their identifiers: a node is one path; false when
    /// one has no node).
    private mutating func restoredChildren(
        of index: Int, at node: Int32
    ) -> (children: [(identifier: String, controller: ViewController?)], distinct: Bool) {
        var children: [(identifier: String, controller: ViewController?)] = []
        var distinct = true
        let stamp = Int32(index + 1)
        for relationship in archive.controllers[index].relationships where relationship.kind == .child || relationship.kind == .pushed {
            if children.isEmpty { children.reserveCapacity(archive.controllers[index].relationships.count) }
            let childNode = child(relationship.identifier, of: node, position: children.count)
            if let childNode {
                if nodes[Int(childNode)].seen == stamp { distinct = false }
                nodes[Int(childNode)].seen = stamp
            } else {
                distinct = false  // no node to tell it from the others by
            }
            children.append((relationship.identifier, childNode.flatMap { nodes[Int($0)].found }))
        }
        return (children, distinct)
    }

    /// Re-links a navigation or tab bar controller's children and selected tab; a custom container
    /// does that itself in its decode, from the references it encoded.
    private func relinkChildren(
        of index: Int, at node: Int32, children named: [(identifier: String, controller: ViewController?)], distinct: Bool
    ) {
        guard let container = nodes[Int(node)].found, Preserver.isBuiltInContainer(container) else { return }
        let children = named.compactMap { entry in entry.controller.map { (entry.identifier, $0) } }
        if let navigation = container as? NavigationController {
            if !children.isEmpty { navigation.setViewControllers(children.map(\.1)) }
        } else {
            relinkTabs(container, children, distinct: distinct)
        }
        if let tabs = container as? TabBarController,
            let selected = archive.controllers[index].relationships.last(where: { $0.kind == .selectedTab })
        {
            tabs.select(restorationIdentifier: selected.identifier)
        }
    }

    /// Puts each child where the container has a child of its identifier (the first), else at the end.
    ///
    /// The container's children are indexed by identifier once and the index kept up to date; a
    /// child appended under its own identifier is left out of it when no later child has that
    /// identifier (`distinct`), so the usual case hashes only what the container had before.
    private func relinkTabs(_ container: ViewController, _ children: [(String, ViewController)], distinct: Bool) {
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
                guard container.childrenVersion == before + 1, container.children.last === child else { continue }
                if distinct, child.restorationIdentifier == identifier {
                    index.version = container.childrenVersion
                } else {
                    index.appended(child, at: container.children.count - 1)
                }
            }
        }
    }

    // MARK: 3. Present again

    private mutating func presentAgain(from index: Int, at node: Int32, inWindow: WindowMembership) {
        let relationships = archive.controllers[index].relationships
        guard let relationship = relationships.first(where: { $0.kind == .presented }),
            let presentedNode = child(
                relationship.identifier, of: node,
                position: relationships.count { $0.kind == .child || $0.kind == .pushed }),
            let presented = nodes[Int(presentedNode)].found
        else { return }
        guard let presenter = nodes[Int(node)].found else { return }
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
/// presentations), found by one walk that marks them instead of one walk up per question.
struct WindowMembership {
    /// This walk's mark: no other walk in the process has it.
    private let mark = WindowMembership.marks.add(1, ordering: .relaxed).newValue

    private static let marks = Atomic<UInt64>(0)

    init(root: ViewController?) {
        if let root { add(root) }
    }

    func contains(_ controller: ViewController) -> Bool { controller.windowMark == mark }

    /// Adds `controller` and everything below it.
    func add(_ controller: ViewController) {
        // A controller with nothing below it (each of a chain of presentations, as it is presented
        // again) is marked without a stack.
        if controller.children.isEmpty, controller.presentedViewController == nil {
            controller.windowMark = mark
            return
        }
        var pending: [ViewController] = []
        pending.reserveCapacity(16)
        pending.append(controller)
        while let next = pending.popLast() {
            guard next.windowMark != mark else { continue }
            next.windowMark = mark
            pending += next.children
            if let presented = next.presentedViewController { pending.append(presented) }
        }
    }
}
