package import RelaunchApp
internal import FoundationEssentials
internal import RelaunchContract
internal import RestorationKit

/// The app's state as `relaunchctl app state --json` shows it: CONTRACT.md's keys and a few more.
///
/// Absent values encode as JSON `null`, never as missing keys.
package struct CheckInState: Equatable, Sendable, Encodable {
    /// The check-in modal's form.
    package struct Modal: Equatable, Sendable, Encodable {
        /// The venue typed or picked.
        package var venue: String
        /// How many people check in (a JSON number).
        package var partySize: Int
        /// The free note.
        package var note: String
        /// `details`, `scan` or `denied`.
        package var step: String
    }

    /// `launch.outcome` (`fresh`, `restored`, `discarded`) and `launch.reason`.
    package var launch: (outcome: String, reason: String?)
    /// `launching`, `active` or `background`.
    package var lifecycle: String
    /// `venues` or `check-in`.
    package var selectedTab: String
    /// Every restoration path in the hierarchy, parents first.
    package var paths: [String]
    /// The presented controller's path, or nil.
    package var presented: String?
    /// How each path was restored at the last launch.
    package var restoredVia: [String: String]
    /// The check-in form, or nil when the modal is not presented.
    package var modal: Modal?
    /// The running build.
    package var buildNumber: String
    /// The camera permission.
    package var camera: String
    /// The overlay's effect behind the modal, or nil (none, or no modal).
    package var overlay: String?
    /// The presented controller's presentation style, or nil.
    package var modalPresentationStyle: String?
    /// The presented controller's transitioning delegate, or nil.
    package var transitioningDelegate: String?
    /// The venue selected in the list, or nil.
    package var selectedVenue: String?
    /// The venue whose detail is pushed, or nil.
    package var venueDetail: String?
    /// How the last instance ended, when it was killed for a permission change.
    package var lastExit: LastExit?

    /// Equal when they encode to the same JSON.
    package static func == (lhs: CheckInState, rhs: CheckInState) -> Bool {
        lhs.json == rhs.json
    }

    /// The state as one line of JSON with sorted keys.
    package var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only strings, numbers and nulls: encoding cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private enum Key: String, CodingKey {
        case launch, lifecycle, selectedTab, paths, presented, restoredVia, modal, buildNumber, camera, overlay
        case modalPresentationStyle, transitioningDelegate, selectedVenue, venueDetail, lastExit, permissions
        case outcome, reason, permission, old, new
    }

    /// Encodes the contract keys; absent values as `null`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        var launchContainer = container.nestedContainer(keyedBy: Key.self, forKey: .launch)
        try launchContainer.encode(launch.outcome, forKey: .outcome)
        try launchContainer.encode(launch.reason, forKey: .reason)
        try container.encode(lifecycle, forKey: .lifecycle)
        try container.encode(selectedTab, forKey: .selectedTab)
        try container.encode(paths, forKey: .paths)
        try container.encode(presented, forKey: .presented)
        try container.encode(restoredVia, forKey: .restoredVia)
        try container.encode(modal, forKey: .modal)
        try container.encode(buildNumber, forKey: .buildNumber)
        try container.encode(camera, forKey: .camera)
        // The contract's common key: every permission the app uses, as it last learned it.
        try container.encode(["camera": camera], forKey: .permissions)
        try container.encode(overlay, forKey: .overlay)
        try container.encode(modalPresentationStyle, forKey: .modalPresentationStyle)
        try container.encode(transitioningDelegate, forKey: .transitioningDelegate)
        try container.encode(selectedVenue, forKey: .selectedVenue)
        try container.encode(venueDetail, forKey: .venueDetail)
        if let lastExit {
            var exit = container.nestedContainer(keyedBy: Key.self, forKey: .lastExit)
            try exit.encode(lastExit.permission.rawValue, forKey: .permission)
            try exit.encode(lastExit.old.rawValue, forKey: .old)
            try exit.encode(lastExit.new.rawValue, forKey: .new)
        } else {
            try container.encodeNil(forKey: .lastExit)
        }
    }
}

extension CheckInApp {
    /// The state, as a value.
    package func state() -> CheckInState {
        let presentedController = application.window.topViewController.flatMap { $0.presentingViewController == nil ? nil : $0 }
        let launch = launchReport.map { ($0.outcome.rawValue, $0.discardReason?.rawValue) } ?? ("fresh", nil)
        return CheckInState(
            launch: launch,
            lifecycle: lifecycle.rawValue,
            selectedTab: selectedTab.rawValue,
            paths: application.window.restorationPaths.map { $0.joined(separator: "/") },
            presented: presentedPath,
            restoredVia: Dictionary(
                (launchReport?.restored ?? []).map { ($0.path, $0.via.rawValue) }, uniquingKeysWith: { $1 }),
            modal: modal.map {
                .init(venue: $0.form.venue, partySize: $0.form.partySize, note: $0.form.note, step: $0.form.step.rawValue)
            },
            buildNumber: buildNumber,
            camera: camera.rawValue,
            overlay: modal?.overlay.effect?.rawValue,
            modalPresentationStyle: presentedController?.modalPresentationStyle.rawValue,
            transitioningDelegate: presentedController?.transitioningDelegate?.transitionName,
            selectedVenue: venueList?.selectedVenue?.id,
            venueDetail: venueDetail?.venue.id,
            lastExit: lastExit)
    }

    /// The state as JSON with CONTRACT.md's keys (sorted; `reason`, `presented`, `modal` null when absent).
    package func stateJSON() -> String { state().json }
}
