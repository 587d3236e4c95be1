internal import RestorationKit

/// The table of colors (the seed's `BNRPaletteViewController`): its rows are the store's colors,
/// and it hands the color editor its color as a segue starts, as the seed's `prepareForSegue:` does.
final class BNRPaletteViewController: TableViewController {
    let store: ColorStore

    init(store: ColorStore) {
        self.store = store
        super.init()
        title = "Colors"
    }

    /// `NewColor` adds a new color and gives it to the editor at the top of the presented navigation
    /// controller; `ExistingColor` (sent with the row's `IndexPath`) gives the editor that row's color.
    override func prepare(for segue: StoryboardSegue, sender: (any Sendable)?) {
        super.prepare(for: segue, sender: sender)
        switch segue.identifier {
        case ColorboardStoryboard.Segue.newColor:
            guard let color = store.addColor() else { return }
            let navigation = segue.destination as? NavigationController
            (navigation?.topViewController as? BNRColorViewController)?.colorDescription = color
        case ColorboardStoryboard.Segue.existingColor:
            guard let indexPath = sender as? IndexPath, store.colors.indices.contains(indexPath.row) else { return }
            let editor = segue.destination as? BNRColorViewController
            editor?.colorDescription = store.colors[indexPath.row]
            editor?.existingColor = true
        default:
            break
        }
    }
}
