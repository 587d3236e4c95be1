public import RelaunchApp
public import RelaunchContract
public import RestorationKit

/// The countries app under the Relaunch host library: it uses location, and keeps its defaults in
/// the host's data file.
extension CountriesApp: HostableApp {
    /// Location: the settings tab shows it, and the app follows its changes in place.
    public static var permissions: [Permission] { [.location] }

    /// Takes the location permission (the only one the app reads).
    public func setPermission(_ permission: Permission, to state: PermissionState) {
        if permission == .location { setLocation(state) }
    }

    /// Takes the saved defaults (before `launch`, so the settings tab shows them when it loads).
    ///
    /// - Throws: `DefaultsError` when they cannot be read; the host keeps them aside and the app goes
    ///   on with its defaults.
    public func loadData(_ bytes: [UInt8]) throws {
        try defaults.load(bytes)
    }

    /// Launches: restores from the newest valid candidate, or not, as the engine decides.
    @discardableResult
    public func launch(candidates: [ArchiveCandidate], restoringMark: any RestoringMarkStore) -> LaunchReport {
        session.launch(candidates: candidates, restoringMark: restoringMark)
    }

    /// Preserves the current state as archive bytes.
    public func preserve() throws(PreservationError) -> Preservation { try session.preserve() }

    /// A normal quit: the app goes to the background (preserving its state) and the process exits.
    public func quit() -> [AppEffect] { background() + [.terminate] }

    /// The user's force quit: saved state is discarded (`force-quit`), the defaults stay, the process exits.
    public func forceQuit() -> [AppEffect] { RestorationSession.forceQuitEffects() }

    /// A one-line description of the screen, e.g. `Showing Canberra`.
    public func statusLine() -> String {
        if lifecycle == .background { return "In the background, state preserved" }
        switch selectedTab {
        case .countries: return countryDetail.map { "Showing \($0.capital)" } ?? "Showing countries"
        case .settings: return "Showing settings"
        }
    }
}
