import RestorationKit
import Testing

/// Containers and presentations are re-linked on restoration.
@Suite("Restoring containers and presentations")
struct ContainmentTests {
    @Test("the selected tab comes back")
    func tabSelection() throws {
        let tabs = TabBarController()
        tabs.restorationIdentifier = "Tabs"
        tabs.setViewControllers([NoteController("One"), NoteController("Two"), NoteController("Three")])
        tabs.select(index: 2)
        let (application, _, _) = try relaunch(tabs) { delegate, _ in
            delegate.rootAtLaunch = {
                let fresh = TabBarController()
                fresh.restorationIdentifier = "Tabs"
                fresh.setViewControllers([NoteController("One"), NoteController("Two"), NoteController("Three")])
                return fresh
            }
        }
        let restored = try #require(application.window.rootViewController as? TabBarController)
        #expect(restored.selectedIndex == 2)
        #expect(restored.selectedViewController?.restorationIdentifier == "Three")
        #expect(!restored.select(restorationIdentifier: "Four") && restored.selectedIndex == 2)
        #expect(!restored.select(index: 3) && restored.selectedIndex == 2)
        #expect(restored.select(restorationIdentifier: "One") && restored.selectedIndex == 0)
    }

    @Test("the pushed stack comes back in order with each controller's state")
    func pushedStack() throws {
        let navigation = NavigationController(rootViewController: NoteController("List"))
        navigation.restorationIdentifier = "Nav"
        navigation.pushViewController(RestorableNote(restorable: "Detail", note: "first"))
        navigation.pushViewController(RestorableNote(restorable: "More", note: "second"))
        let (application, _, report) = try relaunch(navigation) { delegate, _ in
            delegate.rootAtLaunch = {
                let fresh = NavigationController(rootViewController: NoteController("List"))
                fresh.restorationIdentifier = "Nav"
                return fresh
            }
        }
        let restored = try #require(application.window.rootViewController as? NavigationController)
        #expect(restored.viewControllers.map(\.restorationIdentifier) == ["List", "Detail", "More"])
        #expect((restored.topViewController as? NoteController)?.note == "second")
        #expect(report.restored.map(\.via) == [.existing, .existing, .restorationClass, .restorationClass])
    }

    @Test("a presented controller is presented again when its presenter is in the window")
    func presentation() throws {
        let root = RestorableNote(restorable: "Root")
        root.present(RestorableNote(restorable: "Modal", note: "typed"), animated: false)
        let (application, _, report) = try relaunch(root)
        let presented = try #require(application.window.rootViewController?.presentedViewController as? NoteController)
        #expect(presented.note == "typed")
        #expect(presented.restorationPath == ["Root", "Modal"])
        #expect(report.presented == [["Root", "Modal"]])
    }

    @Test("a root restored without becoming the window's root cannot present again (the seed's note)")
    func rootMustBeInWindow() throws {
        let root = RestorableNote(restorable: "Root")
        root.present(RestorableNote(restorable: "Modal"), animated: false)
        let (application, _, report) = try relaunch(root) { delegate, _ in
            delegate.restorationClassSetsRoot = false
        }
        #expect(application.window.rootViewController == nil)
        #expect(report.presented.isEmpty)
        #expect(report.notes.contains { $0.contains("Root/Modal is not presented again") })
        #expect(report.restored.isEmpty, "nothing reached the window, so nothing was restored")
        #expect(report.skipped.map(\.reason) == [.notInWindow, .notInWindow])
    }

    @Test("a restored custom presentation is not animated, so the transition's effects are not redone")
    func customPresentationNotAnimated() throws {
        let transition = CountingTransition()
        let presenter = RestorableNote(restorable: "Presenter")
        let modal = NoteController("Modal", note: "typed")
        modal.modalPresentationStyle = .custom
        modal.transitioningDelegate = transition
        #expect(presenter.present(modal, animated: true))
        #expect(transition.animations == 1, "a user's presentation animates")

        let restoredTransition = CountingTransition()
        let (application, _, report) = try relaunch(presenter) { delegate, _ in
            delegate.fallback[path("Presenter/Modal")] = {
                let made = NoteController("Modal")
                made.modalPresentationStyle = .custom
                made.transitioningDelegate = restoredTransition
                return made
            }
        }
        let restored = try #require(application.window.rootViewController?.presentedViewController as? NoteController)
        #expect(report.presented == [["Presenter", "Modal"]])
        #expect(restored.note == "typed")
        #expect(restoredTransition.animations == 0, "restoration presents without animating")
    }

    @Test("one presentation at a time; a non-animated custom presentation does not animate")
    func presentRules() {
        let transition = CountingTransition()
        let presenter = NoteController("Presenter")
        let modal = NoteController("Modal")
        modal.modalPresentationStyle = .custom
        modal.transitioningDelegate = transition
        #expect(presenter.present(modal, animated: false))
        #expect(transition.animations == 0)
        #expect(!presenter.present(NoteController("Second"), animated: true), "one presentation at a time")
        presenter.dismiss()
        #expect(presenter.presentedViewController == nil && modal.presentingViewController == nil)
        #expect(presenter.present(modal, animated: true))
        #expect(transition.animations == 1)
    }
}

/// Counts the presentation animations it is asked to run.
final class CountingTransition: ViewControllerTransitioningDelegate {
    var animations = 0
    var transitionName: String { "counting" }
    func animatePresentation(of presented: ViewController, over presenting: ViewController) { animations += 1 }
}

/// definesPresentationContext decides who presents a current-context presentation, and so its path.
@Suite("Presentation context")
struct PresentationContextTests {
    private func tabs(contextOnNav: Bool) -> (TabBarController, NavigationController, NoteController) {
        let tabs = TabBarController()
        tabs.restorationIdentifier = "Tabs"
        let list = NoteController("List")
        let navigation = NavigationController(rootViewController: list)
        navigation.restorationIdentifier = "Nav"
        navigation.definesPresentationContext = contextOnNav
        tabs.setViewControllers([navigation])
        return (tabs, navigation, list)
    }

    @Test("a current-context presentation is made by the controller that defines the context")
    func presenterAndPath() {
        let (tabs, navigation, list) = tabs(contextOnNav: true)
        let sheet = NoteController("Sheet")
        sheet.modalPresentationStyle = .currentContext
        #expect(list.present(sheet, animated: false))
        #expect(sheet.presentingViewController === navigation && list.presentedViewController == nil)
        #expect(sheet.restorationPath == ["Tabs", "Nav", "Sheet"])

        let (other, _, otherList) = self.tabs(contextOnNav: false)
        let overSheet = NoteController("Sheet")
        overSheet.modalPresentationStyle = .overCurrentContext
        #expect(otherList.present(overSheet, animated: false))
        #expect(overSheet.presentingViewController === other, "no controller defines it: the top of the chain")
        #expect(overSheet.restorationPath == ["Tabs", "Sheet"])

        let (fullTabs, _, fullList) = self.tabs(contextOnNav: true)
        let full = NoteController("Sheet")
        #expect(fullList.present(full, animated: false))
        #expect(full.restorationPath == ["Tabs", "Nav", "List", "Sheet"], "other styles are presented by the caller")
        withExtendedLifetime((tabs, other, fullTabs)) {}
    }

    @Test("the presentation is saved under the context controller and comes back there")
    func restored() throws {
        let (tabs, _, list) = tabs(contextOnNav: true)
        let sheet = NoteController("Sheet", note: "typed")
        sheet.modalPresentationStyle = .currentContext
        list.present(sheet, animated: false)
        let (application, _, report) = try relaunch(tabs) { delegate, _ in
            delegate.rootAtLaunch = { self.tabs(contextOnNav: true).0 }
            delegate.fallback[path("Tabs/Nav/Sheet")] = {
                let made = NoteController("Sheet")
                made.modalPresentationStyle = .currentContext
                return made
            }
        }
        #expect(report.presented == [["Tabs", "Nav", "Sheet"]])
        let navigation = try #require((application.window.rootViewController as? TabBarController)?.viewControllers.first)
        #expect((navigation.presentedViewController as? NoteController)?.note == "typed")
    }
}

/// Only navigation and tab bar controllers preserve their children by themselves; a custom container
/// encodes references to its children and adds them back when it decodes, as in UIKit.
@Suite("Custom containers")
struct CustomContainerTests {
    /// A split container that encodes its two panes by reference, or not at all.
    final class Split: ViewController {
        var encodesPanes = true
        var addsPanesBack = true
        var decodedPrimary: ViewController?
        init(_ identifier: String) {
            super.init()
            restorationIdentifier = identifier
        }
        override func encodeRestorableState(with coder: inout StateCoder) {
            super.encodeRestorableState(with: &coder)
            guard encodesPanes, children.count == 2 else { return }
            coder.encode(children[0], forKey: "primary")
            coder.encode(children[1], forKey: "secondary")
        }
        override func decodeRestorableState(with coder: StateCoder) {
            super.decodeRestorableState(with: coder)
            decodedPrimary = coder.decodeViewController(forKey: "primary")
            guard addsPanesBack else { return }
            for key in ["primary", "secondary"] {
                if let pane = coder.decodeViewController(forKey: key), pane.parent !== self { addChild(pane) }
            }
        }
    }

    private func split(encodes: Bool = true) -> Split {
        let split = Split("Split")
        split.encodesPanes = encodes
        split.addChild(NoteController("Primary", note: "p"))
        split.addChild(NoteController("Secondary", note: "s"))
        return split
    }

    @Test("a custom container that does not encode its children does not preserve them")
    func notEncoded() throws {
        let application = makeApplication()
        application.window.rootViewController = split(encodes: false)
        let archive = try #require(try application.preserve(generation: 1, timestamp: 0))
        #expect(archive.controllers.map(\.path) == [["Split"]])
        #expect(archive.controllers[0].relationships.isEmpty)
        #expect(application.window.restorationPaths == [["Split"]], "the window reports what preservation saves")
    }

    @Test("encoded children are preserved under the container and come back through its decode")
    func encoded() throws {
        let made = Split("Split")
        let (application, _, report) = try relaunch(split()) { delegate, registry in
            delegate.rootAtLaunch = { made }
            registry.registerScene("Primary") { NoteController("Primary") }
            registry.registerScene("Secondary") { NoteController("Secondary") }
        }
        #expect(report.restored.map(\.path) == [["Split"], ["Split", "Primary"], ["Split", "Secondary"]])
        let root = try #require(application.window.rootViewController as? Split)
        #expect(root.children.compactMap { ($0 as? NoteController)?.note } == ["p", "s"])
        #expect(root.decodedPrimary?.restorationIdentifier == "Primary")
    }

    @Test("the engine does not add a custom container's children back by itself")
    func noAutomaticRelink() throws {
        let made = Split("Split")
        made.addsPanesBack = false
        let (_, _, report) = try relaunch(split()) { delegate, registry in
            delegate.rootAtLaunch = { made }
            registry.registerScene("Primary") { NoteController("Primary") }
            registry.registerScene("Secondary") { NoteController("Secondary") }
        }
        #expect(made.children.isEmpty)
        #expect(made.decodedPrimary != nil, "the reference resolves; adding it back is the container's job")
        #expect(report.restored.map(\.path) == [["Split"]])
        #expect(report.skipped.map(\.reason) == [.notInWindow, .notInWindow])
    }

    @Test("a reference to a child that was not restored decodes to nil")
    func missingChild() throws {
        let made = Split("Split")
        let (_, _, report) = try relaunch(split()) { delegate, registry in
            delegate.rootAtLaunch = { made }
            registry.registerScene("Secondary") { NoteController("Secondary") }
        }
        #expect(made.decodedPrimary == nil)
        #expect(made.children.map(\.restorationIdentifier) == ["Secondary"])
        #expect(report.skipped.map(\.reason) == [.notFound])
    }
}
