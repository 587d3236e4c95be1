internal import RelaunchApp
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

    let model: Model

    func draw() -> String {
        PhoneFrame(
            statusLeft: " 9:41  build \(model.buildNumber)", statusRight: "camera \(model.camera) · \(model.lifecycle) ",
            body: body(), bar: tabBar(), card: model.modal.map(modalCard), dimsBehindCard: model.overlay
        ).draw()
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
                return PhoneFrame.row(marker + venue.name, "venue:\(venue.id) ")
            }
        }
    }

    private func tabBar() -> String {
        let venues = model.selectedTab == .venues ? "[■ Venues]" : " □ Venues "
        let checkIn = model.selectedTab == .checkIn ? "[■ Check In]" : " □ Check In "
        return "   \(venues)  tab:venues    \(checkIn)"
    }

    private func modalCard(_ form: CheckInForm) -> [String] {
        let step: [String] = switch form.step {
        case .details: ["Scan the venue's code to finish.", "[scan]                         [done]"]
        case .scan: ["▣ Camera on: point it at the code.", "                               [done]"]
        case .denied: ["Camera access is denied.", "[open-settings]                [done]"]
        }
        let label = "            "
        let note = PhoneFrame.wrapped(form.note.isEmpty ? "—" : form.note, width: PhoneFrame.cardTextWidth - label.count, lines: 3)
        let lines = [
            "Check In", "venue       \(form.venue.isEmpty ? "—" : form.venue)", "party-size  \(form.partySize)",
            "note        \(note[0])",
        ] + note.dropFirst().map { label + $0 } + ["", "step: \(form.step.rawValue)"] + step
        return PhoneFrame.card(lines)
    }
}

extension CheckInApp {
    /// The current screen drawn as text for people.
    package func screen() -> String {
        ScreenRenderer(
            model: .init(
                buildNumber: buildNumber, lifecycle: lifecycle.rawValue, camera: camera.rawValue, selectedTab: selectedTab,
                venues: venueList?.venues ?? [], selectedRow: venueList?.selectedRow,
                firstVisibleRow: venueList?.firstVisibleRow ?? 0, detail: venueDetail?.venue, modal: modal?.form,
                overlay: modal?.overlay.effect != nil)
        ).draw()
    }
}
