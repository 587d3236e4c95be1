/// The phone every app's screen is drawn in, as text: a rounded frame, a status line, the body, a bar
/// at the bottom (tabs, a toolbar) and, optionally, a card presented over the bottom of it whose
/// presenter may be dimmed with `░`. Each app draws its body, bar and card; the frame is shared so
/// that every app looks like it runs on the same phone.
public struct PhoneFrame: Sendable {
    /// The width inside the frame, in characters.
    public static let width = 44
    /// How many rows the body has between the status line and the bar.
    public static let bodyHeight = 14

    /// The status line's left part (the time, the build).
    public var statusLeft: String
    /// The status line's right part (a permission, the lifecycle).
    public var statusRight: String
    /// The body's rows, cut or filled to `bodyHeight`.
    public var body: [String]
    /// The row at the bottom (a tab bar, a toolbar).
    public var bar: String
    /// A presented card (from `PhoneFrame.card(_:)`) drawn over the bottom rows, or nil.
    public var card: [String]?
    /// Whether the rows the card leaves visible, below the status line, are dimmed.
    public var dimsBehindCard: Bool

    /// A frame showing these parts.
    public init(
        statusLeft: String, statusRight: String, body: [String], bar: String, card: [String]? = nil,
        dimsBehindCard: Bool = false
    ) {
        self.statusLeft = statusLeft
        self.statusRight = statusRight
        self.body = body
        self.bar = bar
        self.card = card
        self.dimsBehindCard = dimsBehindCard
    }

    /// The screen as lines of equal width, each ending in a newline.
    public func draw() -> String {
        let rule = String(repeating: "─", count: Self.width)
        var rows = [Self.row(statusLeft, statusRight), rule]
        rows += Array((body + Array(repeating: "", count: max(0, Self.bodyHeight - body.count))).prefix(Self.bodyHeight))
        rows += [rule, bar]
        if let card {
            let covered = rows.count - card.count
            for index in 1..<covered where dimsBehindCard { rows[index] = Self.dimmed(rows[index]) }
            rows.replaceSubrange(covered..., with: card)
        }
        return (["╭\(rule)╮"] + rows.map { "│\(Self.pad($0))│" } + ["╰\(rule)╯"]).joined(separator: "\n") + "\n"
    }

    /// `lines` in a box as wide as the frame, to present as `card`.
    public static func card(_ lines: [String]) -> [String] {
        let inner = width - 4
        let border = String(repeating: "─", count: inner)
        return [" ┌\(border)┐ "] + lines.map { " │ \(pad($0, to: inner - 2)) │ " } + [" └\(border)┘ "]
    }

    /// How wide a line in a card may be.
    public static var cardTextWidth: Int { width - 6 }

    /// `left` and `right` at the two ends of a row `width` wide (at least one space between).
    public static func row(_ left: String, _ right: String, width: Int = Self.width) -> String {
        left + String(repeating: " ", count: max(1, width - left.count - right.count)) + right
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

    /// `text` filled with spaces to `width`, or cut with `…`.
    public static func pad(_ text: String, to width: Int = Self.width) -> String {
        if text.count > width { return String(text.prefix(width - 1)) + "…" }
        return text + String(repeating: " ", count: width - text.count)
    }

    private static func dimmed(_ row: String) -> String {
        String(pad(row).map { $0 == " " ? "░" : $0 })
    }
}
