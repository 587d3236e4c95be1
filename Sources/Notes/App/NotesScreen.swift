internal import RelaunchApp
internal import RelaunchContract
internal import RestorationKit

/// Draws note windows as text in the phone frame every Relaunch app shares: the title, the body with
/// its caret (`▏`) or selection (`«…»`), a toolbar, and the attachment picker as a card over it.
struct NoteWindowDrawing {
    var title: String
    var body: String
    var selection: Range<Int>
    /// The picker's rows when it is presented, else nil.
    var picker: [String]?
    var statusRight: String

    func draw() -> String {
        PhoneFrame(
            statusLeft: " 9:41", statusRight: statusRight, body: bodyRows(),
            bar: " attach   new-window   close-window", card: picker.map(PhoneFrame.card), dimsBehindCard: true
        ).draw()
    }

    private func bodyRows() -> [String] {
        var characters = Array(body)
        let range = selection.clamped(to: 0..<characters.count)
        if range.isEmpty {
            characters.insert("▏", at: range.lowerBound)
        } else {
            characters.insert("»", at: range.upperBound)
            characters.insert("«", at: range.lowerBound)
        }
        let width = PhoneFrame.width - 2
        let text = String(characters).split(separator: "\n", omittingEmptySubsequences: false).flatMap {
            PhoneFrame.wrapped(String($0), width: width, lines: 9).map { " " + $0 }
        }
        return [PhoneFrame.row(" " + title, "type title "), String(repeating: "·", count: PhoneFrame.width)]
            + Array(text.prefix(10)) + ["", " type body TEXT · cursor-… · select-…"]
    }
}

extension NotesApp {
    /// Every open window drawn as text, one under the other, each under a line naming it.
    package func screen() -> String {
        let windows = self.windows
        guard !windows.isEmpty else {
            return PhoneFrame(
                statusLeft: " 9:41", statusRight: "photos \(photos.rawValue) · \(lifecycle.rawValue) ",
                body: ["", " No windows open.", "", " tap new-window to open one"], bar: " new-window"
            ).draw()
        }
        return windows.enumerated().map { index, scene in
            let key = scene === keyScene ? " · key window" : ""
            return "Window \(index + 1) of \(windows.count)\(key) · session \(scene.session.persistentIdentifier)\n"
                + drawWindow(scene)
        }.joined(separator: "\n")
    }

    /// One window drawn as text.
    func drawWindow(_ scene: Scene) -> String {
        let editor = editor(of: scene)
        let picker: [String]? = editor?.picker.map { _ in
            var rows = ["Attach a photo", ""]
            let shown = AttachmentPickerViewController.photos(under: photos)
            if !shown.isEmpty {
                rows += shown.map { "  tap photo:\($0)" }
                if photos == .limited { rows += ["", "Limited: only the photos you selected."] }
            } else {
                rows += ["Photos access is \(photos.rawValue).", "tap open-settings to allow it"]
            }
            return rows + ["", "tap cancel to close"]
        }
        return NoteWindowDrawing(
            title: note(of: scene)?.displayTitle ?? "Untitled", body: editor?.textView.text ?? "",
            selection: editor?.textView.selectedRange ?? 0..<0, picker: picker,
            statusRight: "photos \(photos.rawValue) · \(lifecycle.rawValue) "
        ).draw()
    }
}
