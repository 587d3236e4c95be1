/// Rebuilds the hierarchy from an archive in UIKit's order.
///
/// 1. Find or create every saved path, parents first: the restoration class (nil skips it and its
///    subtree), else the app delegate (nil: keep looking), else an existing controller at that path,
///    else a registered scene.
/// 2. Re-link containers (children, navigation stacks, tabs and the selected tab).
/// 3. Present again what was presented, if the presenter is in the window (not animated).
/// 4. Decode each controller's state, parents first, unless its class differs from the saved one.
/// 5. `applicationFinishedRestoringState()` on every restored controller.
struct Restorer {
    let application: Application
    let archive: RestorationArchive
    private var found: [[String]: ViewController] = [:]
    private var report = RestorationReport()

    init(application: Application, archive: RestorationArchive) {
        self.application = application
        self.archive = archive
    }

    mutating func run() -> RestorationReport {
        for record in archive.controllers { find(record) }
        let restored = archive.controllers.filter { found[$0.path] != nil }
        for record in restored { relinkChildren(of: record) }
        for record in restored { presentAgain(from: record) }
        let undecoded = Set(report.restored.filter { !$0.decoded }.map(\.path))
        for record in restored where !undecoded.contains(record.path) {
            found[record.path]!.decodeRestorableState(with: coder(for: record))
        }
        for record in restored { found[record.path]!.applicationFinishedRestoringState() }
        return report
    }

    private func coder(for record: ArchivedController) -> StateCoder {
        StateCoder(values: record.state, application: application)
    }

    // MARK: 1. Find

    private mutating func find(_ record: ArchivedController) {
        let path = record.path
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
        } else if let made = application.registry.instantiateScene(path.last!) {
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
        found[path] = controller
        report.restored.append(.init(path: path, via: via, decoded: decoded))
    }

    private func existingController(at path: [String]) -> ViewController? {
        guard path.count > 1 else {
            let root = application.window.rootViewController
            return root?.restorationIdentifier == path[0] ? root : nil
        }
        return found[Array(path.dropLast())]?.descendant(withRestorationIdentifier: path.last!)
    }

    private mutating func skip(_ path: [String], _ reason: RestorationReport.SkipReason) {
        report.skipped.append(.init(path: path, reason: reason))
    }

    // MARK: 2. Re-link containers

    private func relinkChildren(of record: ArchivedController) {
        let container = found[record.path]!
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
        let presenter = found[record.path]!
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
