import RestorationKit
import Testing

/// Storyboard files, segues, and restoring from the storyboard a controller came from (seed 001).
@Suite("Storyboards")
struct StoryboardTests {
    static let colorboard = """
        # Seed 001's Colorboard
        storyboard Colorboard
        initial Nav
        scene Nav NavigationController use-storyboard-id
          root Colors
        scene Colors NoteController use-storyboard-id
          push BNRColorViewController segue edit
          modal AddNav segue add
        scene AddNav NavigationController restoration-id AddNC
          root BNRColorViewController
        scene BNRColorViewController ColorController use-storyboard-id
        scene Tabs TabBarController
          tab Colors
          tab AddNav
        """

    /// Seed 001's color editor: its restoration class instantiates it from the coder's storyboard.
    final class ColorController: NoteController, ViewControllerRestoration {
        static func viewController(withRestorationIdentifierPath path: [String], coder: StateCoder) -> ViewController? {
            (coder.application?.delegate as? TestDelegate)?.log.append("restorationClass \(path.joined(separator: "/"))")
            guard let storyboard = coder.storyboard,
                let made = storyboard.instantiateViewController(withIdentifier: "BNRColorViewController")
            else { return nil }
            made.restorationIdentifier = path.last
            made.restorationClass = ColorController.self
            return made
        }
    }

    static func storyboard() throws -> Storyboard {
        try Storyboard(text: colorboard, classes: [
            "NoteController": { NoteController(nil) },
            "ColorController": {
                let made = ColorController(nil)
                made.restorationClass = ColorController.self
                return made
            },
        ])
    }

    @Test("scenes, relationships and restoration identifiers from the file")
    func instantiate() throws {
        let storyboard = try Self.storyboard()
        let nav = try #require(storyboard.instantiateInitialViewController() as? NavigationController)
        #expect(nav.restorationIdentifier == "Nav" && nav.storyboardIdentifier == "Nav")
        #expect(nav.viewControllers.map(\.restorationIdentifier) == ["Colors"])
        #expect(nav.topViewController?.storyboard?.name == "Colorboard")
        let add = try #require(storyboard.instantiateViewController(withIdentifier: "AddNav"))
        #expect(add.restorationIdentifier == "AddNC", "restoration-id, not the storyboard id")
        let tabs = try #require(storyboard.instantiateViewController(withIdentifier: "Tabs") as? TabBarController)
        #expect(tabs.restorationIdentifier == nil)
        #expect(tabs.viewControllers.map(\.restorationIdentifier) == ["Colors", "AddNC"])
        #expect(storyboard.instantiateViewController(withIdentifier: "Missing") == nil)
    }

    @Test("a file with CRLF line ends reads as one with LF")
    func crlf() throws {
        let classes: [String: () -> ViewController] = ["NoteController": { NoteController(nil) }, "ColorController": { ColorController(nil) }]
        let lf = try Storyboard(text: Self.colorboard, classes: classes)
        let crlf = try Storyboard(text: Self.colorboard.replacing("\n", with: "\r\n"), classes: classes)
        #expect(crlf.name == lf.name)
        let tabs = try #require(crlf.instantiateViewController(withIdentifier: "Tabs") as? TabBarController)
        #expect(tabs.viewControllers.map(\.restorationIdentifier) == ["Colors", "AddNC"])
    }

    @Test("push and modal segues")
    func segues() throws {
        let storyboard = try Self.storyboard()
        let nav = try #require(storyboard.instantiateInitialViewController() as? NavigationController)
        let colors = try #require(nav.topViewController)
        let pushed = try #require(storyboard.performSegue("edit", from: colors))
        #expect(nav.topViewController === pushed && pushed is ColorController)
        let presented = try #require(storyboard.performSegue("add", from: colors, animated: false) as? NavigationController)
        #expect(colors.presentedViewController === presented)
        #expect(presented.viewControllers.first is ColorController)
        #expect(storyboard.performSegue("nope", from: colors) == nil)
    }

    /// Records each segue it prepares for, before the destination is shown (seed 001's palette).
    final class PreparingSource: ViewController {
        var prepared: [(identifier: String, destinationShown: Bool, sender: Int?)] = []
        override func prepare(for segue: StoryboardSegue, sender: (any Sendable)?) {
            let shown = segue.destination.parent != nil || segue.destination.presentingViewController != nil
            prepared.append((segue.identifier, shown, sender as? Int))
            #expect(segue.source === self)
        }
    }

    @Test("the source prepares for a segue with its destination and sender before it is shown")
    func prepareForSegue() throws {
        let storyboard = try Storyboard(
            text: "storyboard S\nscene Nav NavigationController\n  root A\nscene A Source\n  push B segue Push\n  modal B segue Modal\nscene B ViewController",
            classes: ["Source": { PreparingSource() }])
        let nav = try #require(storyboard.instantiateViewController(withIdentifier: "Nav") as? NavigationController)
        let source = try #require(nav.topViewController as? PreparingSource)
        let pushed = storyboard.performSegue("Push", from: source, sender: 3)
        #expect(nav.topViewController === pushed)
        #expect(storyboard.performSegue("Modal", from: source, animated: false) === source.presentedViewController)
        #expect(storyboard.performSegue("Missing", from: source) == nil)
        #expect(source.prepared.map(\.identifier) == ["Push", "Modal"])
        #expect(source.prepared.map(\.destinationShown) == [false, false], "prepared before it is shown")
        #expect(source.prepared.map(\.sender) == [3, nil])
    }

    @Test("a modal segue animates unless told not to, as a user's tap does")
    func segueAnimates() throws {
        let transition = CountingTransition()
        let storyboard = try Storyboard(
            text: "storyboard S\nscene A ViewController\n  modal B segue show\nscene B Sheet",
            classes: ["Sheet": {
                let sheet = ViewController()
                sheet.modalPresentationStyle = .custom
                sheet.transitioningDelegate = transition
                return sheet
            }])
        let source = try #require(storyboard.instantiateViewController(withIdentifier: "A"))
        #expect(storyboard.performSegue("show", from: source) != nil)
        #expect(transition.animations == 1)
        source.dismiss()
        #expect(storyboard.performSegue("show", from: source, animated: false) != nil)
        #expect(transition.animations == 1)
    }

    @Test("the coder carries the storyboard; a restoration class and the last step instantiate from it")
    func restoreFromStoryboard() throws {
        let storyboard = try Self.storyboard()
        let nav = try #require(storyboard.instantiateInitialViewController() as? NavigationController)
        let colors = try #require(nav.topViewController as? NoteController)
        colors.note = "list"
        let edited = try #require(storyboard.performSegue("edit", from: colors) as? ColorController)
        edited.note = "red"
        let added = try #require(storyboard.performSegue("add", from: colors, animated: false))
        ((added as? NavigationController)?.topViewController as? NoteController)?.note = "new"

        let before = makeApplication()
        before.registry.register(storyboard)
        before.window.rootViewController = nav
        let archive = try #require(try before.preserve(generation: 1, timestamp: 0))
        let record = try #require(archive.controllers.first { $0.path == ["Nav", "Colors"] })
        #expect(record.state[StateCoder.storyboardKey] == .string("Colorboard"))
        #expect(record.state[StateCoder.storyboardIdentifierKey] == .string("Colors"))

        let delegate = TestDelegate()
        // A main storyboard: its initial controller is the window's root before restoration, as in UIKit.
        delegate.rootAtLaunch = { storyboard.instantiateInitialViewController() ?? ViewController() }
        let after = makeApplication(delegate)
        after.registry.register(storyboard)
        after.registry.register(ColorController.self)
        let report = try restored(after.launch(restoringFrom: try ArchiveCodec.decode(try ArchiveCodec.encode(archive)).archive))
        #expect(report.via(["Nav"]) == .existing)
        #expect(report.via(["Nav", "Colors"]) == .existing)
        #expect(report.via(["Nav", "BNRColorViewController"]) == .restorationClass)
        #expect(report.via(["Nav", "Colors", "AddNC"]) == .storyboard)
        #expect(report.via(["Nav", "Colors", "AddNC", "BNRColorViewController"]) == .restorationClass)
        #expect(delegate.log.contains("restorationClass Nav/BNRColorViewController"))
        let restoredNav = try #require(after.window.rootViewController as? NavigationController)
        #expect(restoredNav.viewControllers.map(\.restorationIdentifier) == ["Colors", "BNRColorViewController"])
        #expect((restoredNav.topViewController as? ColorController)?.note == "red")
        #expect(restoredNav.topViewController?.storyboard?.name == "Colorboard")
        let modal = try #require(restoredNav.viewControllers.first?.presentedViewController as? NavigationController)
        #expect((modal.topViewController as? NoteController)?.note == "new")
    }

    @Test("a bad storyboard names the line and what is accepted", arguments: [
        ("storyboard A\nscene X Unknown", 2, "unknown class 'Unknown'"),
        ("storyboard A\n  root X", 2, "'root' must follow a scene line"),
        ("storyboard A\nscene X ViewController\n  push Y", 3, "expected 'push SCENE segue NAME'"),
        ("storyboard A\nfrobnicate", 2, "accepted: storyboard, initial, scene"),
        ("storyboard A\nscene X ViewController restoration-id", 2, "expected 'use-storyboard-id' or 'restoration-id ID'"),
        ("storyboard A\nscene X ViewController\nscene X ViewController", 3, "appears twice"),
        ("storyboard A\nscene X NavigationController\n  root Y", 0, "refers to 'Y'"),
        ("scene X ViewController", 0, "no 'storyboard NAME' line"),
        ("storyboard A\ninitial Z", 0, "initial scene 'Z'"),
    ])
    func errors(text: String, line: Int, message: String) {
        let error = #expect(throws: StoryboardError.self) { try Storyboard(text: text) }
        #expect(error?.line == line)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }
}
