internal import RestorationKit
internal import RelaunchApp
package import RelaunchContract

/// The check-in app under the Relaunch host library: it needs the camera.
extension CheckInApp: SessionHostedApp {
    /// The camera: Scan needs it.
    package static var permissions: [Permission] { [.camera] }

    /// Takes the camera permission (the only one the app reads).
    package func setPermission(_ permission: Permission, to state: PermissionState) {
        if permission == .camera { setCamera(state) }
    }

    /// A one-line description of the screen, e.g. `Showing check-in modal (details)`.
    package func statusLine() -> String {
        let state = state()
        if lifecycle == .background { return "In the background, state preserved" }
        if let modal = state.modal { return "Showing check-in modal (\(modal.step))" }
        if let venue = state.venueDetail { return "Showing venue \(venue)" }
        return state.selectedTab == "venues" ? "Showing venues" : "Showing check-in tab"
    }
}
