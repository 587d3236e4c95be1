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
    }

    @Test("a restored custom presentation is not animated, so the transition's effects are not redone")
    func customPresentationNotAnimated() throws {
        final class Transition: ViewControllerTransitioningDelegate {
            var animations = 0
            var transitionName: String { "test" }
            func animatePresentation(of presented: ViewController, over presenting: ViewController) { animations += 1 }
        }
        let transition = Transition()
        let presenter = NoteController("Presenter")
        let modal = NoteController("Modal")
        modal.modalPresentationStyle = .custom
        modal.transitioningDelegate = transition
        #expect(presenter.present(modal, animated: true))
        #expect(transition.animations == 1)
        presenter.dismiss()
        #expect(presenter.present(modal, animated: false))
        #expect(transition.animations == 1)
        #expect(!presenter.present(NoteController("Second"), animated: true), "one presentation at a time")
    }
}
