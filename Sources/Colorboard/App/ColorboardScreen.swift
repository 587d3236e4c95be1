internal import RelaunchApp
internal import RelaunchContract
internal import RestorationKit

/// Draws Colorboard in the phone frame: the list of colors under its navigation bar, the pushed
/// editor in its place, or a new color's editor as a card over the dimmed list.
extension ColorboardApp {
    /// The current screen drawn as text for people.
    package func screen() -> String {
        let body: [String]
        if let editor = pushedEditor {
            body = [" ‹ Colors [back]", " Edit Color", ""] + editorLines(editor).map { " " + $0 }
        } else {
            body = listLines()
        }
        return PhoneFrame(
            statusLeft: " 9:41  build \(buildNumber)", statusRight: "photos \(photos.rawValue) · \(lifecycle.rawValue) ",
            body: body,
            bar: PhoneFrame.row("   colors: \(store.colors.count)", "swatches saved: \(store.swatches.count)   "),
            card: presentedEditor.map { PhoneFrame.card([PhoneFrame.row("New Color", "[cancel] [done]", width: PhoneFrame.cardTextWidth), ""] + editorLines($0)) },
            dimsBehindCard: true
        ).draw()
    }

    private func listLines() -> [String] {
        let rows = store.colors.map { color in
            PhoneFrame.row("   ■ \(color.name.isEmpty ? "—" : color.name)  \(color.hex)", "color:\(color.id) ")
        }
        let room = PhoneFrame.bodyHeight - 2
        let shown = rows.count > room ? Array(rows.prefix(room - 1)) + ["   … \(rows.count - room + 1) more (tap color:ID)"] : rows
        return [PhoneFrame.row(" Colors", "[add] "), ""] + shown
    }

    /// The editor's fields, as the pushed screen and the card show them (at most `cardTextWidth` wide).
    private func editorLines(_ editor: BNRColorViewController) -> [String] {
        func slider(_ label: String, _ value: Double) -> String {
            let filled = Int((value * 16).rounded())
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: 16 - filled)
            return label.padding(to: 7) + String.twoDecimals(value) + " ▕" + bar + "▏"
        }
        let swatch: [String] = switch editor.swatch {
        case .none: ["[save-swatch]"]
        case .saved:
            switch photos {
            case .addOnly: ["[save-swatch]  saved to Photos", "add-only: it cannot see the library"]
            case .limited: ["[save-swatch]  saved to Photos", "limited: it sees only chosen photos"]
            default: ["[save-swatch]  saved to Photos"]
            }
        case .denied: ["[save-swatch]", "Photos is denied: [open-settings]"]
        }
        return [
            "name   \(editor.name.isEmpty ? "—" : editor.name)",
            slider("red", editor.red), slider("green", editor.green), slider("blue", editor.blue),
            "", "▓▓▓▓▓▓▓▓▓▓  \(editor.hex)", "",
        ] + swatch
    }
}

extension String {
    /// `value` (0 to 1) with two decimals, `0.50`.
    static func twoDecimals(_ value: Double) -> String {
        let hundredths = Int((Swift.min(Swift.max(value, 0), 1) * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0\(fraction)" : "\(fraction)")
    }

    /// Filled with spaces to `width`.
    func padding(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
