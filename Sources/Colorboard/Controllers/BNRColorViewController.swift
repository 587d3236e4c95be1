internal import RestorationKit

/// The color editor (the seed's `BNRColorViewController`): a name field and red, green and blue
/// sliders for one color, pushed to edit it or presented in a navigation controller to add it.
///
/// What is typed stays in the editor (restorable state) until it goes away: then it is written to
/// the color (the seed's `viewWillDisappear:`), which the app saves with its data model. Restored by
/// its restoration class, which instantiates it from the storyboard the coder names.
final class BNRColorViewController: ViewController, ViewControllerRestoration {
    /// Whether the color's swatch was saved to the photo library from this editor.
    enum Swatch: String, Sendable, CaseIterable {
        /// Not tried yet (or the photos permission has since been allowed).
        case none
        /// Saved.
        case saved
        /// Photos access is denied; the user is offered Settings.
        case denied
    }

    private enum Key {
        static let colorID = "colorID"
        static let existingColor = "existingColor"
        static let name = "name"
        static let red = "red"
        static let green = "green"
        static let blue = "blue"
        static let swatch = "swatch"
    }

    /// Whether it edits a color of the list (pushed, no Done button) rather than a new one.
    var existingColor = false
    /// The color it edits; setting it shows the color's values (the seed's `viewDidLoad`).
    var colorDescription: BNRColorDescription? {
        didSet {
            guard let color = colorDescription else { return }
            (name, red, green, blue) = (color.name, color.red, color.green, color.blue)
        }
    }
    /// The text field.
    var name = ""
    /// The sliders, 0 to 1.
    var red = 0.0
    var green = 0.0
    var blue = 0.0
    /// Where saving the swatch got to.
    var swatch = Swatch.none

    override init() {
        super.init()
        restorationClass = BNRColorViewController.self
        title = "Color"
    }

    /// The background: the sliders' color.
    var hex: String { BNRColorDescription.hex(red, green, blue) }

    /// Whether its navigation item has the Done button: only for a new color (the seed's `viewWillAppear:`).
    var hasDoneButton: Bool { !existingColor }

    /// It is going away: the name and the sliders' color go to the color (the seed's `viewWillDisappear:`).
    func viewWillDisappear() {
        guard let color = colorDescription else { return }
        (color.name, color.red, color.green, color.blue) = (name, red, green, blue)
    }

    override func encodeRestorableState(with coder: inout StateCoder) {
        super.encodeRestorableState(with: &coder)
        if let color = colorDescription { coder.encode(color.id, forKey: Key.colorID) }
        coder.encode(existingColor, forKey: Key.existingColor)
        coder.encode(name, forKey: Key.name)
        coder.encode(red, forKey: Key.red)
        coder.encode(green, forKey: Key.green)
        coder.encode(blue, forKey: Key.blue)
        coder.encode(swatch.rawValue, forKey: Key.swatch)
    }

    /// What was typed and slid comes back over the color's saved values.
    override func decodeRestorableState(with coder: StateCoder) {
        super.decodeRestorableState(with: coder)
        existingColor = coder.decodeBool(forKey: Key.existingColor) ?? existingColor
        if let saved = coder.decodeString(forKey: Key.name), saved.count <= BNRColorDescription.maximumNameLength { name = saved }
        for (key, component) in [(Key.red, \BNRColorViewController.red), (Key.green, \.green), (Key.blue, \.blue)] {
            if let value = coder.decodeDouble(forKey: key), (0...1).contains(value) { self[keyPath: component] = value }
        }
        swatch = coder.decodeString(forKey: Key.swatch).flatMap(Swatch.init(rawValue:)) ?? .none
    }

    /// The seed's restoration class: the editor comes from the storyboard the coder names, for the
    /// color it edited while that color is still in the list (else it is not restored).
    static func viewController(withRestorationIdentifierPath identifierComponents: [String], coder: StateCoder) -> ViewController? {
        guard let storyboard = coder.storyboard,
            let id = coder.decodeString(forKey: Key.colorID),
            let color = ColorboardAppDelegate.current(coder)?.store.color(id),
            let editor = storyboard.instantiateViewController(withIdentifier: ColorboardStoryboard.ID.editor) as? BNRColorViewController
        else { return nil }
        editor.restorationIdentifier = identifierComponents.last
        editor.restorationClass = BNRColorViewController.self
        editor.colorDescription = color
        return editor
    }
}
