public import RestorationKit

/// The shapes issue 13 asks to be linear, each made of `count` controllers.
public enum Shape: String, CaseIterable, Sendable {
    /// A tab bar with `count - 1` tabs (the shape that was quadratic).
    case tabBar = "tab-bar"
    /// A custom container that encodes its `count - 1` children.
    case customContainer = "custom-container"
    /// A navigation controller with `count - 1` controllers pushed.
    case stack = "stack"
    /// `count` controllers, each presenting the next.
    case presentationChain = "presentation-chain"
    /// Custom containers of 8 children each, filled level by level.
    case balancedTree = "balanced-tree"

    /// The hierarchy's root.
    public func makeHierarchy(count: Int) -> ViewController {
        switch self {
        case .tabBar:
            let tabs = BenchTabs()
            tabs.setViewControllers((1..<count).map { BenchController(identifier: "Tab\($0)", row: $0) })
            tabs.select(index: (count - 1) / 2)
            return tabs
        case .customContainer:
            let root = BenchController(identifier: "Root", row: 0)
            for index in 1..<count { root.addChild(BenchController(identifier: "Child\(index)", row: index)) }
            return root
        case .stack:
            let navigation = BenchNavigation()
            for index in 1..<count { navigation.pushViewController(BenchController(identifier: "Screen\(index)", row: index)) }
            return navigation
        case .presentationChain:
            let root = BenchController(identifier: "Modal0", row: 0)
            var top = root
            for index in 1..<count {
                let next = BenchController(identifier: "Modal\(index)", row: index)
                top.present(next, animated: false)
                top = next
            }
            return root
        case .balancedTree:
            let root = BenchController(identifier: "Node0", row: 0)
            var level: [ViewController] = [root]
            var made = 1
            while made < count {
                var next: [ViewController] = []
                for parent in level {
                    for position in 0..<8 where made < count {
                        let child = BenchController(identifier: "Node\(position)", row: made)
                        parent.addChild(child)
                        next.append(child)
                        made += 1
                    }
                }
                level = next
            }
            return root
        }
    }
}

/// A controller with a little state (a note and a row), restored by its restoration class; it
/// encodes its children, so that a controller with children is a custom container.
public final class BenchController: ViewController, ViewControllerRestoration {
    /// Text being typed, say.
    public var note = ""
    /// A selected row, say.
    public var row = 0

    /// A controller named `identifier`.
    public init(identifier: String, row: Int) {
        super.init()
        restorationIdentifier = identifier
        restorationClass = BenchController.self
        self.row = row
        note = "note \(row)"
    }

    public override func encodeRestorableState(with coder: inout StateCoder) {
        super.encodeRestorableState(with: &coder)
        coder.encode(note, forKey: "note")
        coder.encode(row, forKey: "row")
        if !children.isEmpty { coder.encode(children, forKey: "children") }
    }

    public override func decodeRestorableState(with coder: StateCoder) {
        super.decodeRestorableState(with: coder)
        note = coder.decodeString(forKey: "note") ?? ""
        row = coder.decodeInt(forKey: "row") ?? 0
        for child in coder.decodeViewControllers(forKey: "children") { addChild(child) }
    }

    public static func viewController(withRestorationIdentifierPath path: [String], coder: StateCoder) -> ViewController? {
        let made = BenchController(identifier: path[path.count - 1], row: 0)
        if path.count == 1 { coder.application?.window.rootViewController = made }
        return made
    }
}

/// A tab bar restored by its restoration class (empty: restoration adds the tabs back).
public final class BenchTabs: TabBarController, ViewControllerRestoration {
    public override init() {
        super.init()
        restorationIdentifier = "Tabs"
        restorationClass = BenchTabs.self
    }

    public static func viewController(withRestorationIdentifierPath path: [String], coder: StateCoder) -> ViewController? {
        let made = BenchTabs()
        coder.application?.window.rootViewController = made
        return made
    }
}

/// A navigation controller restored by its restoration class (empty: restoration adds the stack back).
public final class BenchNavigation: NavigationController, ViewControllerRestoration {
    public init() {
        super.init(rootViewController: nil)
        restorationIdentifier = "Navigation"
        restorationClass = BenchNavigation.self
    }

    public static func viewController(withRestorationIdentifierPath path: [String], coder: StateCoder) -> ViewController? {
        let made = BenchNavigation()
        coder.application?.window.rootViewController = made
        return made
    }
}

/// An app delegate that preserves and restores.
final class BenchDelegate: ApplicationDelegate {
    func application(_ application: Application, shouldSaveApplicationState coder: inout StateCoder) -> Bool { true }
    func application(_ application: Application, shouldRestoreApplicationState coder: StateCoder) -> Bool { true }
}
