/// Scenes of controllers and how they connect, read from a storyboard file (`UIStoryboard`).
///
/// The file is text, one statement a line; `#` starts a comment line:
///
///     storyboard Colorboard                 # the name archives refer to
///     initial Nav                           # the scene instantiateInitialViewController() makes
///     scene Nav NavigationController restoration-id MainNC
///       root Colors                         # root of a navigation controller
///     scene Colors ColorsViewController use-storyboard-id
///       push Color segue edit               # a push segue named "edit"
///       modal AddNav segue add              # a modal segue named "add"
///     scene Tabs TabBarController
///       tab Colors                          # tabs, in order
///     scene Color ColorViewController use-storyboard-id
///
/// A scene line names the storyboard id, the class (a name in `classes`), and optionally the
/// restoration identifier: `use-storyboard-id` or `restoration-id ID`. Every controller a storyboard
/// makes remembers it, and preservation saves the storyboard's name in the controller's coder under
/// `StateCoder.storyboardKey`, so that a restoration class can instantiate from it (seed 001) and
/// restoration's last step can too.
public struct Storyboard {
    /// A scene: one controller and its relationships.
    public struct Scene: Sendable {
        /// The storyboard id.
        public var identifier: String
        /// The class name, a key of the storyboard's `classes`.
        public var className: String
        /// The restoration identifier its controllers get, if any.
        public var restorationIdentifier: String?
        /// The root of a navigation controller.
        public var root: String?
        /// The tabs of a tab bar controller, in order.
        public var tabs: [String] = []
        /// Segues by name: the destination scene and whether it is pushed (else presented modally).
        public var segues: [String: (destination: String, push: Bool)] = [:]
    }

    /// The name archives refer to it by.
    public let name: String
    /// The scene `instantiateInitialViewController()` makes.
    public let initialScene: String?
    /// The scenes, by storyboard id.
    public let scenes: [String: Scene]
    private let classes: [String: () -> ViewController]

    /// The built-in classes every storyboard can name.
    public static var builtInClasses: [String: () -> ViewController] {
        [
            "ViewController": { ViewController() },
            "NavigationController": { NavigationController() },
            "TabBarController": { TabBarController() },
            "TableViewController": { TableViewController() },
        ]
    }

    /// A storyboard read from `text`.
    ///
    /// - Parameters:
    ///   - text: The storyboard file's contents.
    ///   - classes: How to make each class a scene names, besides `builtInClasses`.
    /// - Throws: `StoryboardError` naming the line and what is accepted.
    public init(text: String, classes: [String: () -> ViewController] = [:]) throws(StoryboardError) {
        let known = Self.builtInClasses.merging(classes) { $1 }
        var name: String?
        var initial: String?
        var scenes: [String: Scene] = [:]
        var order: [String] = []
        var current: String?
        // Any line break ends a line: "\r\n" is one Character, which a split at "\n" never finds.
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let keyword = words.first, !keyword.hasPrefix("#") else { continue }
            func fail(_ message: String) -> StoryboardError { StoryboardError(line: number, message: message) }
            switch keyword {
            case "storyboard":
                guard words.count == 2 else { throw fail("expected 'storyboard NAME'") }
                name = words[1]
            case "initial":
                guard words.count == 2 else { throw fail("expected 'initial SCENE'") }
                initial = words[1]
            case "scene":
                guard words.count >= 3 else { throw fail("expected 'scene ID CLASS [use-storyboard-id | restoration-id ID]'") }
                guard known[words[2]] != nil else {
                    throw fail("unknown class '\(words[2])'; known: \(known.keys.sorted().joined(separator: ", "))")
                }
                guard scenes[words[1]] == nil else { throw fail("scene '\(words[1])' appears twice") }
                var scene = Scene(identifier: words[1], className: words[2])
                switch Array(words.dropFirst(3)) {
                case []: break
                case ["use-storyboard-id"]: scene.restorationIdentifier = words[1]
                case let rest where rest.count == 2 && rest[0] == "restoration-id": scene.restorationIdentifier = rest[1]
                default: throw fail("after the class, expected 'use-storyboard-id' or 'restoration-id ID'")
                }
                scenes[scene.identifier] = scene
                order.append(scene.identifier)
                current = scene.identifier
            case "root", "tab", "push", "modal":
                guard let owner = current else { throw fail("'\(keyword)' must follow a scene line") }
                if keyword == "root" || keyword == "tab" {
                    guard words.count == 2 else { throw fail("expected '\(keyword) SCENE'") }
                    if keyword == "root" { scenes[owner]?.root = words[1] } else { scenes[owner]?.tabs.append(words[1]) }
                } else {
                    guard words.count == 4, words[2] == "segue" else { throw fail("expected '\(keyword) SCENE segue NAME'") }
                    scenes[owner]?.segues[words[3]] = (words[1], keyword == "push")
                }
            default:
                throw fail("unknown statement '\(keyword)'; accepted: storyboard, initial, scene, root, tab, push, modal")
            }
        }
        guard let name else { throw StoryboardError(line: 0, message: "no 'storyboard NAME' line") }
        for id in order {
            guard let scene = scenes[id] else { continue }
            let targets = [scene.root].compactMap { $0 } + scene.tabs + scene.segues.values.map(\.destination)
            if let missing = targets.first(where: { scenes[$0] == nil }) {
                throw StoryboardError(line: 0, message: "scene '\(id)' refers to '\(missing)', which is not a scene")
            }
        }
        if let initial, scenes[initial] == nil {
            throw StoryboardError(line: 0, message: "the initial scene '\(initial)' is not a scene")
        }
        self.name = name
        self.initialScene = initial
        self.scenes = scenes
        self.classes = known
    }

    /// A new controller for the initial scene, with its root or tabs.
    public func instantiateInitialViewController() -> ViewController? {
        initialScene.flatMap(instantiateViewController(withIdentifier:))
    }

    /// A new controller for the scene `identifier` (storyboard id), with its root or tabs, or nil when there is none.
    public func instantiateViewController(withIdentifier identifier: String) -> ViewController? {
        guard let scene = scenes[identifier], let make = classes[scene.className] else { return nil }
        let controller = make()
        controller.restorationIdentifier = scene.restorationIdentifier ?? controller.restorationIdentifier
        controller.storyboard = self
        controller.storyboardIdentifier = identifier
        if let root = scene.root, let rootController = instantiateViewController(withIdentifier: root) {
            controller.addChild(rootController)
        }
        if let tabs = controller as? TabBarController {
            tabs.setViewControllers(scene.tabs.compactMap(instantiateViewController(withIdentifier:)))
        }
        return controller
    }

    /// Performs the segue `name` from `source` (a controller this storyboard made): instantiates the
    /// destination, lets `source` prepare for it (`prepare(for:sender:)`, where it hands the destination
    /// its data), then pushes it on `source`'s navigation controller or presents it modally.
    ///
    /// - Parameters:
    ///   - name: The segue's identifier.
    ///   - source: The controller it starts from.
    ///   - sender: What triggered it (a row's index path, a button's name), passed to `prepare(for:sender:)`.
    ///   - animated: Whether a modal presentation animates.
    /// - Returns: The destination, or nil when there is no such segue or a push has no navigation controller.
    @discardableResult
    public func performSegue(
        _ name: String, from source: ViewController, sender: (any Sendable)? = nil, animated: Bool = true
    ) -> ViewController? {
        guard let id = source.storyboardIdentifier, let segue = scenes[id]?.segues[name] else { return nil }
        let navigation = source as? NavigationController ?? source.parent as? NavigationController
        if segue.push, navigation == nil { return nil }
        guard let destination = instantiateViewController(withIdentifier: segue.destination) else { return nil }
        source.prepare(for: StoryboardSegue(identifier: name, source: source, destination: destination), sender: sender)
        if segue.push, let navigation {
            navigation.pushViewController(destination)
            return destination
        }
        return source.present(destination, animated: animated) ? destination : nil
    }
}

/// A segue being performed (`UIStoryboardSegue`): its identifier and the two controllers.
public struct StoryboardSegue {
    /// The segue's identifier in the storyboard (`NewColor`, `ExistingColor`).
    public let identifier: String
    /// The controller it starts from.
    public let source: ViewController
    /// The controller it shows: for a modal segue to a navigation controller, that navigation
    /// controller (its root is its `topViewController`).
    public let destination: ViewController
}

/// A storyboard file that cannot be read: the line (0 for the whole file) and what is wrong.
public struct StoryboardError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line, or 0 when the fault is not on one line.
    public var line: Int
    /// What is wrong and what is accepted.
    public var message: String

    /// An error at `line`.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// `storyboard line N: message`.
    public var description: String { line == 0 ? "storyboard: \(message)" : "storyboard line \(line): \(message)" }
}
