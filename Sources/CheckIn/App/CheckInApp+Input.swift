package import RelaunchApp
internal import RelaunchContract
internal import RestorationKit

/// Taps, typing and the lifecycle.
extension CheckInApp {
    /// Taps `element` (`tab:venues`, `tab:check-in`, `check-in`, `scan`, `open-settings`, `done`, `venue:ID`).
    ///
    /// - Returns: What the host must do: `open-settings` sends the app to the background, so the host
    ///   preserves state.
    /// - Throws: `InputError` for an unknown element or venue, one not on screen now, or when in the background.
    @discardableResult
    package func tap(_ element: String) throws(InputError) -> [AppEffect] {
        guard lifecycle == .active else { throw .inBackground }
        let parsed = try Element(parsing: element)
        if case .venue(let id) = parsed, !delegate.venues.contains(where: { $0.id == id }) {
            throw .unknownVenue(id, accepted: delegate.venues.map(\.id))
        }
        let onScreen = onScreenElements()
        guard onScreen.contains(parsed) else { throw .notOnScreen(element, onScreen: onScreen.map(\.name)) }

        switch parsed {
        case .tab(let tab):
            if tab == selectedTab, tab == .venues { venuesNavigation?.setViewControllers(venueList.map { [$0] } ?? []) }
            tabs?.select(restorationIdentifier: tab == .venues ? RestorationID.venuesNavigation : RestorationID.checkIn)
        case .venue(let id):
            guard let list = venueList, let row = list.row(ofVenue: id) else { return [] }
            list.selectedRow = row
            venuesNavigation?.pushViewController(VenueDetailViewController(venue: list.venues[row]))
        case .checkIn:
            checkInTab?.checkIn(venue: venueList?.selectedVenue?.name ?? "")
        case .scan:
            modal?.form.scan(camera: camera)
        case .openSettings:
            return [.openSettings(.camera)] + background()
        case .done:
            checkInTab?.dismiss()
        }
        return []
    }

    /// Types `text` into `field` of the check-in form (`venue`, `party-size`, `note`), replacing what was there.
    ///
    /// - Throws: `InputError` for an unknown field, a party size that is not a number from 1 to 20,
    ///   text that is too long, a form not on screen, or when in the background.
    @discardableResult
    package func type(_ field: String, _ text: String) throws(InputError) -> [AppEffect] {
        guard lifecycle == .active else { throw .inBackground }
        guard let parsed = Field(rawValue: field) else { throw .unknownField(field) }
        guard let modal else { throw .formNotOnScreen }
        switch parsed {
        case .venue:
            guard text.count <= CheckInForm.maximumVenueLength else { throw .tooLong(field: field, maximum: CheckInForm.maximumVenueLength) }
            modal.form.venue = text
        case .partySize:
            let trimmed = text.trimmingSpaces
            guard let size = Int(trimmed), CheckInForm.partySizes.contains(size) else { throw .invalidPartySize(text) }
            modal.form.partySize = size
        case .note:
            guard text.count <= CheckInForm.maximumNoteLength else { throw .tooLong(field: field, maximum: CheckInForm.maximumNoteLength) }
            modal.setNote(text)
        }
        return []
    }

    /// Brings the app back; a modal at `denied` moves on to `scan` if the camera is now allowed.
    @discardableResult
    package func foreground() -> [AppEffect] {
        guard let effects = session.enterForeground() else { return [] }
        modal?.form.resume(camera: camera)
        return effects
    }

    /// What can be tapped now.
    func onScreenElements() -> [Element] {
        if let modal {
            switch modal.form.step {
            case .details: return [.scan, .done]
            case .scan: return [.done]
            case .denied: return [.openSettings, .done]
            }
        }
        var elements: [Element] = [.tab(.venues), .tab(.checkIn)]
        switch selectedTab {
        case .venues where venueDetail == nil: elements += (venueList?.venues ?? []).map { .venue($0.id) }
        case .venues: break
        case .checkIn: elements.append(.checkIn)
        }
        return elements
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return self[first...last]
    }
}
