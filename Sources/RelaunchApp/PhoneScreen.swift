/// The phone every Relaunch app draws its screen in (`Screen()`): a rounded frame 44 characters wide,
/// a status line, 14 rows of content, the tab bar, and optionally a card over the content (a modal)
/// with what it covers dimmed with `░`.
///
/// Apps draw their own content and tab bar; the frame, the padding and the text helpers are here so
/// that every app's screen has the same shape.
public enum PhoneScreen {
    /// Characters between the frame's edges.
    public static let width = 44
    /// Rows of content between the status line's rule and the tab bar's.
    public static let bodyHeight = 14

    /// The whole screen, one line per row and a final newline.
    ///
    /// - Parameters:
    ///   - status: The status line (see `statusLine(left:right:)`).
    ///   - body: The content; cut or filled to `bodyHeight` rows.
    ///   - tabBar: The tab bar's row.
    ///   - card: Rows drawn over the bottom of the screen (a modal), or nil.
    ///   - dimsBehindCard: Whether the rows above the card are dimmed (its overlay).
    public static func draw(status: String, body: [String], tabBar: String, card: [String]? = nil, dimsBehindCard: Bool = false)
        -> String
    {
        let rule = String(repeating: "─", count: width)
        var rows = [status, rule]
        rows += fitted(body, height: bodyHeight)
        rows += [rule, tabBar]
        if let card {
            let covered = rows.count - card.count
            for index in 1..<covered where dimsBehindCard { rows[index] = dimmed(rows[index]) }
            rows.replaceSubrange(covered..., with: card)
        }
        return (["╭\(rule)╮"] + rows.map { "│\(pad($0))│" } + ["╰\(rule)╯"]).joined(separator: "\n") + "\n"
    }

    /// `left` and `right` at the two ends of one row.
    public static func statusLine(left: String, right: String) -> String {
        spread(left, right)
    }

    /// `left`, then blanks (at least one), then `right`, so that the row is `width` wide when it fits.
    public static func spread(_ left: String, _ right: String) -> String {
        left + String(repeating: " ", count: max(1, width - left.count - right.count)) + right
    }

    /// `text` cut to `width` (its last character `…`) or filled with blanks.
    public static func pad(_ text: String, to width: Int = PhoneScreen.width) -> String {
        if text.count > width { return String(text.prefix(width - 1)) + "…" }
        return text + String(repeating: " ", count: width - text.count)
    }

    /// `text` broken at spaces into at most `lines` lines of `width` characters (the last one cut with `…`).
    public static func wrapped(_ text: String, width: Int, lines: Int) -> [String] {
        var result: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.isEmpty, current.count + 1 + word.count > width {
                result.append(current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        result.append(current)
        guard result.count > lines else { return result }
        return Array(result.prefix(lines - 1)) + [pad(result[(lines - 1)...].joined(separator: " "), to: width)]
    }

    /// `rows` cut or filled with empty rows to `height`.
    public static func fitted(_ rows: [String], height: Int) -> [String] {
        Array((rows + Array(repeating: "", count: max(0, height - rows.count))).prefix(height))
    }

    /// `row` padded, its blanks shown as `░` (behind an overlay).
    public static func dimmed(_ row: String) -> String {
        String(pad(row).map { $0 == " " ? "░" : $0 })
    }
}
