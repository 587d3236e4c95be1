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
struct Restorer {
    let application: Application
    let archive: RestorationArchive
    private var found: [[String]: ViewController] = [:]
    private var report = RestorationReport()

    init(application: Application, archive: RestorationArchive) {
        self.application = application
        self.archive = archive
    }

    /// Steps 1 to 5.
    mutating func run() {
        for record in archive.controllers { find(record) }
        let restored = archive.controllers.filter { found[$0.path] != nil }
        let decoded = Set(report.restored.filter(\.decoded).map(\.path))
        let decoding = restored.filter { decoded.contains($0.path) }
        var decodedViews: [View] = []
        // Parents first: a built-in container is re-linked, then the controller decodes (where a
        // custom container adds back the children it encoded), then its views.
        for record in restored {
            guard let controller = found[record.path] else { continue }
            relinkChildren(of: record)
            guard decoded.contains(record.path) else { continue }
            var coder = coder(for: record)
            coder.restoredChildren = restoredChildren(of: record)
            controller.decodeRestorableState(with: coder)
            decodedViews += decodeViews(of: controller, from: record)
        }
        for record in restored { presentAgain(from: record) }
        let objects = restoreObjects()
        for record in decoding { found[record.path]?.applicationFinishedRestoringState() }
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
            guard parentPath.isEmpty || found[parentPath] != nil || restoredObjects[parentPath] != nil else {
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
            guard String(reflecting: type(of: view)) == saved.className else {
                report.notes.append(
                    "\((record.path + [saved.identifier]).joined(separator: "/")): saved as \(saved.className) but now "
                        + "\(String(reflecting: type(of: view))); its state is not decoded")
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
        var settled = report
        settled.restored = []
        for entry in report.restored {
            if let controller = found[entry.path], application.window.contains(controller) {
                settled.restored.append(entry)
            } else {
                settled.skipped.append(.init(path: entry.path, reason: .notInWindow))
            }
        }
        let kept = Set(settled.restored.map(\.path))
        settled.presented = report.presented.filter { kept.contains($0) }
        return settled
    }

    private func coder(for record: ArchivedController) -> StateCoder {
        StateCoder(values: record.state, application: application)
    }

    // MARK: 1. Find

    private mutating func find(_ record: ArchivedController) {
        let path = record.path
        guard let identifier = path.last else { return skip(path, .emptyPath) }
        if path.count > 1, found[Array(path.dropLast())] == nil {
            return skip(path, .ancestorSkipped)
        }
        let coder = coder(for: record)
        let controller: ViewController
        let via: RestorationReport.Via
        if let name = record.restorationClassName {
            guard let restorationClass = application.registry.restorationClass(named: name) else {
                return skip(path, .restorationClassNotRegistered(name))
            }
            guard let made = restorationClass.viewController(withRestorationIdentifierPath: path, coder: coder) else {
                return skip(path, .restorationClassReturnedNil)
            }
            (controller, via) = (made, .restorationClass)
        } else if let made = application.delegate?.application(
            application, viewControllerWithRestorationIdentifierPath: path, coder: coder)
        {
            (controller, via) = (made, .appDelegate)
        } else if let existing = existingController(at: path) {
            (controller, via) = (existing, .existing)
        } else if let made = storyboardController(for: record, coder: coder) {
            (controller, via) = (made, .storyboard)
        } else if let made = application.registry.instantiateScene(identifier) {
            (controller, via) = (made, .storyboard)
        } else {
            return skip(path, .notFound)
        }
        let decoded = controller.className == record.className
        if !decoded {
            report.notes.append(
                "\(path.joined(separator: "/")): saved as \(record.className) but restored as "
                    + "\(controller.className); its state is not decoded")
        }
        if controller.restorationIdentifier != identifier {
            report.notes.append(
                "\(path.joined(separator: "/")) came back with restoration identifier "
                    + (controller.restorationIdentifier.map { "'\($0)'" } ?? "nil")
                    + " instead of '\(identifier)'; the next preservation will not save it under this path")
        }
        found[path] = controller
        report.restored.append(.init(path: path, via: via, decoded: decoded))
    }

    /// UIKit's last step: instantiate from the storyboard the controller came from, by its storyboard id.
    private func storyboardController(for record: ArchivedController, coder: StateCoder) -> ViewController? {
        guard let storyboard = coder.storyboard, let id = coder.decodeString(forKey: StateCoder.storyboardIdentifierKey) else {
            return nil
        }
        return storyboard.instantiateViewController(withIdentifier: id)
    }

    private func existingController(at path: [String]) -> ViewController? {
        guard let identifier = path.last else { return nil }
        guard path.count > 1 else {
            let root = application.window.rootViewController
            return root?.restorationIdentifier == identifier ? root : nil
        }
        return found[Array(path.dropLast())]?.descendant(withRestorationIdentifier: identifier)
    }

    private mutating func skip(_ path: [String], _ reason: RestorationReport.SkipReason) {
        report.skipped.append(.init(path: path, reason: reason))
    }

    // MARK: 2. Re-link containers

    /// The restored controllers a record names as children, by identifier.
    private func restoredChildren(of record: ArchivedController) -> [String: ViewController] {
        var children: [String: ViewController] = [:]
        for relationship in record.relationships where relationship.kind == .child || relationship.kind == .pushed {
            children[relationship.identifier] = found[record.path + [relationship.identifier]]
        }
        return children
    }

    /// Re-links a navigation or tab bar controller's children and selected tab; a custom container
    /// does that itself in its decode, from the references it encoded.
    private func relinkChildren(of record: ArchivedController) {
        guard let container = found[record.path], Preserver.isBuiltInContainer(container) else { return }
        let contained = record.relationships.filter { $0.kind == .child || $0.kind == .pushed }
        let children = contained.compactMap { relationship in
            found[record.path + [relationship.identifier]].map { (relationship.identifier, $0) }
        }
        if let navigation = container as? NavigationController {
            if !children.isEmpty { navigation.setViewControllers(children.map(\.1)) }
        } else {
            for (identifier, child) in children {
                if let index = container.children.firstIndex(where: { $0.restorationIdentifier == identifier }) {
                    container.replaceChild(at: index, with: child)
                } else {
                    container.addChild(child)
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

    private mutating func presentAgain(from record: ArchivedController) {
        guard let relationship = record.relationships.first(where: { $0.kind == .presented }),
            let presented = found[record.path + [relationship.identifier]]
        else { return }
        guard let presenter = found[record.path] else { return }
        let name = (record.path + [relationship.identifier]).joined(separator: "/")
        guard application.window.contains(presenter) else {
            report.notes.append(
                "\(name) is not presented again: its presenter is not in the window's hierarchy "
                    + "(set window.rootViewController while the root is restored)")
            return
        }
        if presenter.presentedViewController === presented || presenter.present(presented, animated: false) {
            report.presented.append(record.path + [relationship.identifier])
        } else {
            report.notes.append("\(name) is not presented again: its presenter already presents another controller")
        }
    }
}
