internal import RestorationKit

/// The app's storyboard: `Storyboard/Colorboard.storyboard`, compiled in so that the installed binary
/// needs no file beside it (SwiftPM's resource bundles are found next to the build products, not in
/// /usr/local/bin). `ColorboardTests` fails when the two differ; copy the file here after editing it.
enum ColorboardStoryboard {
    /// The storyboard file's text.
    static let text = """
        # Colorboard.storyboard: seed 001's storyboard (relaunch's storyboard format, see RestorationKit's
        # Storyboard). Every scene's restoration identifier is its storyboard id, as the seed advises.
        # The app compiles this file in as ColorboardStoryboard.text (a test keeps the two the same).
        storyboard Colorboard
        # The main storyboard's initial controller: the window's root, made before restoration.
        initial PaletteNavigationController
        scene PaletteNavigationController NavigationController use-storyboard-id
          root BNRPaletteViewController
        # The table of colors: `+` presents a new color, a tapped row pushes the editor.
        scene BNRPaletteViewController BNRPaletteViewController use-storyboard-id
          modal NewColorNavigationController segue NewColor
          push BNRColorViewController segue ExistingColor
        # A new color is edited in a navigation controller of its own, for its Done button.
        scene NewColorNavigationController NavigationController use-storyboard-id
          root BNRColorViewController
        scene BNRColorViewController BNRColorViewController use-storyboard-id
        """

    /// Storyboard ids, which are also the restoration identifiers.
    enum ID {
        static let paletteNavigation = "PaletteNavigationController"
        static let palette = "BNRPaletteViewController"
        static let newColorNavigation = "NewColorNavigationController"
        static let editor = "BNRColorViewController"
    }

    /// Segue identifiers.
    enum Segue {
        static let newColor = "NewColor"
        static let existingColor = "ExistingColor"
    }

    /// The storyboard read from `text`, its classes making controllers that use `store`.
    static func load(store: ColorStore) -> Storyboard {
        do {
            return try Storyboard(text: text, classes: [
                "BNRPaletteViewController": { BNRPaletteViewController(store: store) },
                "BNRColorViewController": { BNRColorViewController() },
            ])
        } catch {
            // The text is compiled in and read by the tests: this is a build that was never tested.
            preconditionFailure("Colorboard.storyboard: \(error)")
        }
    }
}
