package import RelaunchApp
internal import RelaunchContract
internal import RestorationKit

/// Taps and typing, aimed at the key window or at a named one.
extension NotesApp {
    /// Taps `element` in the key window (see `InputError.acceptedElements`).
    ///
    /// - Returns: What the host must do: edits save the notes; `new-window` saves them too;
    ///   `close-window` preserves (so the closed window's saved state goes); `open-settings` sends
    ///   the app to the background, so the host preserves.
    /// - Throws: `InputError` for an unknown element, one not on screen now, or in the background.
    @discardableResult
    package func tap(_ element: String) throws(InputError) -> [AppEffect] {
        try tap(element, in: keyScene)
    }

    /// Types `text` into `field` of the key window: `title` replaces the title, `body` replaces the
    /// selection (or inserts at the caret).
    ///
    /// - Returns: Saving the notes.
    /// - Throws: `InputError` for a field the window does not show now, or in the background.
    @discardableResult
    package func type(_ field: String, _ text: String) throws(InputError) -> [AppEffect] {
        try type(field, text, in: keyScene)
    }

    /// What the key window accepts (none in the background).
    package func elements() -> [ScreenElement] { elements(in: keyScene) }

    // MARK: In one window

    func tap(_ element: String, in scene: Scene?) throws(InputError) -> [AppEffect] {
        guard lifecycle == .active else { throw .inBackground }
        let parsed = try Element(parsing: element)
        let onScreen = onScreenElements(in: scene)
        guard onScreen.contains(parsed) else { throw .notOnScreen(element, onScreen: onScreen.map(\.name)) }
        if let scene { keySession = scene.session.persistentIdentifier }
        let editor = scene.flatMap(editor(of:))
        let text = editor?.textView
        let caret = text?.selectedRange.lowerBound ?? 0
        switch parsed {
        case .cursorStart: text?.selectedRange = 0..<0
        case .cursorEnd: text.map { $0.selectedRange = $0.text.count..<$0.text.count }
        case .cursorLeft: text?.selectedRange = max(0, caret - 1)..<max(0, caret - 1)
        case .cursorRight:
            let next = min(text?.text.count ?? 0, (text?.selectedRange.upperBound ?? 0) + (text?.selectedRange.isEmpty == true ? 1 : 0))
            text?.selectedRange = next..<next
        case .selectLeft: text.map { $0.selectedRange = max(0, caret - 1)..<$0.selectedRange.upperBound }
        case .selectAll: text.map { $0.selectedRange = 0..<$0.text.count }
        case .attach: editor?.presentPicker()
        case .photo(let name):
            editor?.dismiss()
            return edit(scene) { $0.insert("[\(name)]") }
        case .cancel: editor?.dismiss()
        case .openSettings: return [.openSettings(.photos)] + background()
        case .newWindow: return (try? openScene().effects) ?? []
        case .closeWindow:
            guard let scene else { return [] }
            application.requestSceneSessionDestruction(scene.session)
            keySession = windows.last?.session.persistentIdentifier
            return [.preserveState]
        case .window(let number): keySession = windows[number - 1].session.persistentIdentifier
        }
        return []
    }

    func type(_ field: String, _ text: String, in scene: Scene?) throws(InputError) -> [AppEffect] {
        guard lifecycle == .active else { throw .inBackground }
        let fields = scene.map(fields(in:)) ?? []
        guard let parsed = Field(rawValue: field), fields.contains(parsed), let scene else {
            throw .unknownField(field, fields: fields.map(\.rawValue))
        }
        keySession = scene.session.persistentIdentifier
        switch parsed {
        case .title:
            guard var note = note(of: scene) else { return [] }
            note.title = String(text.map { $0.isNewline ? " " : $0 })
            store.update(note)
            scene.title = note.displayTitle
            return [.saveData(store.bytes)]
        case .body:
            return edit(scene) { $0.insert(text) }
        }
    }

    /// Runs `change` on the window's editor, then keeps its text in the store.
    private func edit(_ scene: Scene?, _ change: (NoteViewController) -> Void) -> [AppEffect] {
        guard let scene, let editor = editor(of: scene), var note = note(of: scene) else { return [] }
        change(editor)
        note.body = editor.textView.text
        store.update(note)
        return [.saveData(store.bytes)]
    }

    /// What can be tapped in `scene`'s window now: the editor's or the picker's, then the windows'.
    func onScreenElements(in scene: Scene?) -> [Element] {
        var elements: [Element] = []
        if let scene, let editor = editor(of: scene) {
            if editor.picker != nil {
                let shown = AttachmentPickerViewController.photos(under: photos)
                elements += shown.isEmpty ? [.openSettings] : shown.map(Element.photo)
                elements.append(.cancel)
            } else {
                elements += [.cursorStart, .cursorEnd, .cursorLeft, .cursorRight, .selectLeft, .selectAll, .attach]
            }
            // The last window stays: with none, the next launch would open a new one (as UIKit does
            // for a scene-based app without sessions), so what a relaunch shows would not be what was left.
            if windows.count > 1 { elements.append(.closeWindow) }
        }
        elements.append(.newWindow)
        for (index, window) in windows.enumerated() where window !== scene { elements.append(.window(index + 1)) }
        return elements
    }

    /// The fields of `scene`'s window now: none while the picker is up.
    func fields(in scene: Scene) -> [Field] {
        editor(of: scene)?.picker == nil ? Field.allCases : []
    }

    func elements(in scene: Scene?) -> [ScreenElement] {
        guard lifecycle == .active else { return [] }
        let fields = scene.map(fields(in:)) ?? []
        return fields.map { ScreenElement(name: $0.rawValue, isField: true, description: $0 == .title ? "the note's title (typing replaces it)" : "the note's text (typing replaces the selection)") }
            + onScreenElements(in: scene).map { ScreenElement(name: $0.name, isField: false, description: $0.summary) }
    }
}
