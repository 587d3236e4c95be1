/// A phone drawn as text, the frame every Relaunch app's `Screen()` shares: a status line, the body,
/// a bar at the bottom, and optionally a modal card over the lower part, the rest dimmed with `░`.
///
/// ```
/// ╭────────────╮
/// │ status     │
/// │────────────│
/// │ body …     │
/// │────────────│
/// │ bottom bar │
/// ╰────────────╯
/// ```
public struct PhoneScreen: Sendable {
    /// The inner width of the frame, in characters.
    public static let width = 44
    /// The rows between the two rules.
    public static let bodyHeight = 14
    /// The width of a line inside a card.
    public static let cardLineWidth = width - 6

    /// The top line (time, build, permissions, lifecycle).
    public var status: String
    /// The body's rows, cut or padded to `bodyHeight`.
    public var body: [String]
    /// The line under the body (a tab bar, a toolbar).
    public var bottomBar: String
    /// The lines of a modal card drawn over the screen's lower part, or nil.
    public var card: [String]?
    /// Whether what the card leaves visible is dimmed.
    public var dimsBehindCard: Bool

    /// A screen with these parts.
    public init(status: String, body: [String], bottomBar: String, card: [String]? = nil, dimsBehindCard: Bool = false) {
        self.status = status
        self.body = body
        self.bottomBar = bottomBar
        self.card = card
        self.dimsBehindCard = dimsBehindCard
    }

    /// The frame and everything in it, each line as wide as the frame, ending with a newline.
    public func draw() -> String {
        let rule = String(repeating: "─", count: Self.width)
        var rows = [status, rule]
        rows += Array((body + Array(repeating: "", count: max(0, Self.bodyHeight - body.count))).prefix(Self.bodyHeight))
        rows += [rule, bottomBar]
        if let card {
            let box = Self.box(card)
            let covered = rows.count - box.count
            for index in 1..<covered where dimsBehindCard { rows[index] = String(Self.pad(rows[index]).map { $0 == " " ? "░" : $0 }) }
            rows.replaceSubrange(covered..., with: box)
        }
        return (["╭\(rule)╮"] + rows.map { "│\(Self.pad($0))│" } + ["╰\(rule)╯"]).joined(separator: "\n") + "\n"
    }

    /// `left` and `right` on one line of `width`, at least one space apart.
    public static func spread(_ left: String, _ right: String, width: Int = width) -> String {
        left + String(repeating: " ", count: max(1, width - left.count - right.count)) + right
    }

    /// `text` padded with spaces to `width`, or cut with `…` when longer.
    public static func pad(_ text: String, to width: Int = width) -> String {
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

    /// The card's lines in a box, indented one space from the frame.
    private static func box(_ lines: [String]) -> [String] {
        let border = String(repeating: "─", count: width - 4)
        return [" ┌\(border)┐ "] + lines.map { " │ \(pad($0, to: cardLineWidth)) │ " } + [" └\(border)┘ "]
    }
}
