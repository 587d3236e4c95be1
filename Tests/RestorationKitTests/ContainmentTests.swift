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
