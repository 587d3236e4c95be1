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
        controller.encodeRestorableState(with: &coder)
        records.append(
            ArchivedController(
                path: path,
                className: controller.className,
                restorationClassName: controller.restorationClass.map(RestorationRegistry.name(of:)),
                relationships: Self.relationships(of: controller),
                state: coder.values))

        for child in controller.children { try visit(child, parentPath: path) }
        if let presented = controller.presentedViewController { try visit(presented, parentPath: path) }
    }

    private static func relationships(of controller: ViewController) -> [ArchivedRelationship] {
        let childKind: ArchivedRelationship.Kind = controller is NavigationController ? .pushed : .child
        var relationships = controller.children.compactMap { child in
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

/// Why the hierarchy could not be preserved.
public enum PreservationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Two controllers have the same restoration path.
    case duplicatePath(path: [String], firstClass: String, secondClass: String)
    /// The archive would be over the hard size limit.
    case archive(ArchiveError)
    /// The app delegate's `shouldSaveApplicationState` returned false.
    case declinedByDelegate

    /// What went wrong and what to do, in one line.
    public var description: String {
        switch self {
        case .duplicatePath(let path, let first, let second):
            "cannot preserve state: \(first) and \(second) both have the restoration path "
                + "'\(path.joined(separator: "/"))'; give one of them another restorationIdentifier"
        case .archive(let error):
            "cannot preserve state: \(error)"
        case .declinedByDelegate:
            "state was not preserved: the app delegate's shouldSaveApplicationState returned false"
        }
    }
}
