package import RelaunchApp
internal import RelaunchContract
internal import RestorationKit

/// Taps, typing, the lifecycle, and what the screen accepts.
extension ColorboardApp {
    /// Taps `element`: `add`, `color:ID`, `back`, `done`, `cancel`, `save-swatch`, `open-settings`.
    ///
    /// - Returns: What the host must do: save the color list when it changed; `open-settings` sends
    ///   the app to the background, so the host preserves state.
    /// - Throws: `ColorboardInputError` for an unknown element or color, one not on screen now, a full
    ///   list, or when in the background.
    @discardableResult
    package func tap(_ element: String) throws(ColorboardInputError) -> [AppEffect] {
        guard lifecycle == .active else { throw .inBackground }
        let parsed = try ColorboardElement(parsing: element)
        if case .color(let id) = parsed, store.color(id) == nil { throw .unknownColor(id, accepted: store.colors.map(\.id)) }
        if parsed == .add, store.colors.count >= ColorStore.maximumColors { throw .listFull(maximum: ColorStore.maximumColors) }
        let onScreen = onScreenElements()
        guard onScreen.contains(parsed) else { throw .notOnScreen(element, onScreen: onScreen.map(\.name)) }

        switch parsed {
        case .add:
            guard let palette else { return [] }
            storyboard.performSegue(ColorboardStoryboard.Segue.newColor, from: palette)
            return saveData()
        case .color(let id):
            guard let palette, let row = store.colors.firstIndex(where: { $0.id == id }) else { return [] }
            storyboard.performSegue(ColorboardStoryboard.Segue.existingColor, from: palette, sender: IndexPath(row: row, section: 0))
        case .back:
            pushedEditor?.viewWillDisappear()
            paletteNavigation?.popViewController()
            return saveData()
        case .done:
            presentedEditor?.viewWillDisappear()
            palette?.dismiss()
            return saveData()
        case .cancel:
            if let color = presentedEditor?.colorDescription { store.removeColor(color.id) }
            palette?.dismiss()
            return saveData()
        case .saveSwatch:
            guard let editor else { return [] }
            guard canSaveSwatches else {
                editor.swatch = .denied
                return []
            }
            editor.swatch = .saved
            store.addSwatch("\(editor.name) \(editor.hex)")
            return saveData()
        case .openSettings:
            return [.openSettings(.photos)] + background()
        }
        return []
    }

    /// Types `text` into `field` of the editor (`name`, `red`, `green`, `blue`), replacing what was there.
    ///
    /// - Throws: `ColorboardInputError` for an unknown field, a component that is not a number from 0
    ///   to 1, a name that is too long, no editor on screen, or when in the background.
    @discardableResult
    package func type(_ field: String, _ text: String) throws(ColorboardInputError) -> [AppEffect] {
        guard lifecycle == .active else { throw .inBackground }
        guard let parsed = ColorboardField(rawValue: field) else { throw .unknownField(field) }
        guard let editor else { throw .editorNotOnScreen }
        guard parsed != .name else {
            guard text.count <= BNRColorDescription.maximumNameLength else {
                throw .nameTooLong(maximum: BNRColorDescription.maximumNameLength)
            }
            editor.name = text
            return []
        }
        let trimmed = String(text.filter { $0 != " " && $0 != "\t" })
        guard trimmed.count <= 16, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(trimmed), (0...1).contains(value)
        else { throw .invalidComponent(field: field, text: text) }
        switch parsed {
        case .red: editor.red = value
        case .green: editor.green = value
        case .blue: editor.blue = value
        case .name: break
        }
        return []
    }

    /// Brings the app back; an editor whose swatch was denied may try again if photos is now allowed.
    @discardableResult
    package func foreground() -> [AppEffect] {
        guard let effects = session.enterForeground() else { return [] }
        resumeSwatch()
        return effects
    }

    /// What the current screen accepts: its taps (none in the background), then the editor's fields.
    package func elements() -> [ScreenElement] {
        guard lifecycle == .active else { return [] }
        var elements = onScreenElements().map { ScreenElement(name: $0.name, isField: false, description: describe($0)) }
        if editor != nil {
            elements += [
                ScreenElement(name: "name", isField: true, description: "the color's name, at most \(BNRColorDescription.maximumNameLength) characters"),
                ScreenElement(name: "red", isField: true, description: "the red slider, a number from 0 to 1"),
                ScreenElement(name: "green", isField: true, description: "the green slider, a number from 0 to 1"),
                ScreenElement(name: "blue", isField: true, description: "the blue slider, a number from 0 to 1"),
            ]
        }
        return elements
    }

    private func describe(_ element: ColorboardElement) -> String {
        switch element {
        case .add: "add a new color and edit it (the + button, NewColor segue)"
        case .color(let id): "edit \(store.color(id)?.name ?? id) (ExistingColor segue)"
        case .back: "go back to the colors, keeping the edits"
        case .done: "keep the new color and close its editor"
        case .cancel: "drop the new color and close its editor"
        case .saveSwatch: "save a swatch of the color to the photo library (needs photos)"
        case .openSettings: "open Settings to change the photos permission (the app goes to the background)"
        }
    }

    /// What can be tapped now.
    func onScreenElements() -> [ColorboardElement] {
        let swatch: [ColorboardElement] = editor?.swatch == .denied ? [.saveSwatch, .openSettings] : [.saveSwatch]
        if presentedEditor != nil { return [.done, .cancel] + swatch }
        if pushedEditor != nil { return [.back] + swatch }
        let add: [ColorboardElement] = store.colors.count < ColorStore.maximumColors ? [.add] : []
        return add + store.colors.map { .color($0.id) }
    }

    private func saveData() -> [AppEffect] { [.saveData(store.data())] }
}
