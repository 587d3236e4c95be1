internal import RelaunchContract
internal import RestorationKit

/// Draws the screen as text: a phone-shaped frame with a status line, the selected tab's content
/// and the tab bar; the check-in modal as a card over its presenter, which its overlay dims with `░`.
struct ScreenRenderer {
    /// Everything the drawing shows, taken from the app.
    struct Model {
        var buildNumber: String
        var lifecycle: String
        var camera: String
        var selectedTab: Tab
        var venues: [Venue]
        var selectedRow: Int?
        var firstVisibleRow: Int
        var detail: Venue?
        var modal: CheckInForm?
        var overlay: Bool
    }

    static let width = 44
    static let bodyHeight = 14

    let model: Model

    func draw() -> String {
        var rows = [status(), String(repeating: "─", count: Self.width)]
        rows += fitted(body(), height: Self.bodyHeight)
        rows += [String(repeating: "─", count: Self.width), tabBar()]
        if let form = model.modal {
            let card = modalCard(form)
            let covered = rows.count - card.count
            for index in 1..<covered where model.overlay { rows[index] = dimmed(rows[index]) }
            rows.replaceSubrange(covered..., with: card)
        }
        let edge = String(repeating: "─", count: Self.width)
        return (["╭\(edge)╮"] + rows.map { "│\(pad($0))│" } + ["╰\(edge)╯"]).joined(separator: "\n") + "\n"
    }

    private func status() -> String {
        let left = " 9:41  build \(model.buildNumber)"
        let right = "camera \(model.camera) · \(model.lifecycle) "
        return left + String(repeating: " ", count: max(1, Self.width - left.count - right.count)) + right
    }

    private func body() -> [String] {
        switch model.selectedTab {
        case .checkIn:
            return [" Check In", "", " Check in where you are: pick a venue,", " say how many you are, scan its code.", "",
                    "            [ check-in ]"]
        case .venues:
            if let venue = model.detail {
                return [" ‹ Venues   (tap tab:venues to go back)", "", " \(venue.name)", " id: \(venue.id)"]
            }
            let visible = model.venues.enumerated().dropFirst(model.firstVisibleRow)
            return [" Venues", ""] + visible.map { row, venue in
                let marker = row == model.selectedRow ? " ▸ " : "   "
                let name = marker + venue.name
                let target = "venue:\(venue.id) "
                return name + String(repeating: " ", count: max(1, Self.width - name.count - target.count)) + target
            }
        }
    }

    private func tabBar() -> String {
        let venues = model.selectedTab == .venues ? "[■ Venues]" : " □ Venues "
        let checkIn = model.selectedTab == .checkIn ? "[■ Check In]" : " □ Check In "
        return "   \(venues)  tab:venues    \(checkIn)"
    }

    private func modalCard(_ form: CheckInForm) -> [String] {
        let inner = Self.width - 4
        let step: [String] = switch form.step {
        case .details: ["Scan the venue's code to finish.", "[scan]                         [done]"]
        case .scan: ["▣ Camera on: point it at the code.", "                               [done]"]
        case .denied: ["Camera access is denied.", "[open-settings]                [done]"]
        }
        let label = "            "
        let note = wrapped(form.note.isEmpty ? "—" : form.note, width: inner - 2 - label.count, lines: 3)
        let lines = [
            "Check In", "venue       \(form.venue.isEmpty ? "—" : form.venue)", "party-size  \(form.partySize)",
            "note        \(note[0])",
        ] + note.dropFirst().map { label + $0 } + ["", "step: \(form.step.rawValue)"] + step
        let border = String(repeating: "─", count: inner)
        return [" ┌\(border)┐ "] + lines.map { " │ \(pad($0, to: inner - 2)) │ " } + [" └\(border)┘ "]
    }

    /// `text` broken at spaces into at most `lines` lines of `width` characters (the last one cut with `…`).
    private func wrapped(_ text: String, width: Int, lines: Int) -> [String] {
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

    private func fitted(_ rows: [String], height: Int) -> [String] {
        Array((rows + Array(repeating: "", count: max(0, height - rows.count))).prefix(height))
    }

    private func dimmed(_ row: String) -> String {
        String(pad(row).map { $0 == " " ? "░" : $0 })
    }

    private func pad(_ text: String, to width: Int = Self.width) -> String {
        if text.count > width { return String(text.prefix(width - 1)) + "…" }
        return text + String(repeating: " ", count: width - text.count)
    }
}

extension CheckInApp {
    /// The current screen drawn as text for people.
    public func screen() -> String {
        ScreenRenderer(
            model: .init(
                buildNumber: buildNumber, lifecycle: lifecycle.rawValue, camera: camera.rawValue, selectedTab: selectedTab,
                venues: venueList?.venues ?? [], selectedRow: venueList?.selectedRow,
                firstVisibleRow: venueList?.firstVisibleRow ?? 0, detail: venueDetail?.venue, modal: modal?.form,
                overlay: modal?.overlay.effect != nil)
        ).draw()
    }
}
