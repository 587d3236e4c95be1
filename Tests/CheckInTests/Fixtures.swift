@testable import CheckIn
import RelaunchApp
import RelaunchContract
import RestorationKit
import Testing

/// The seed's path names, joined.
enum SeedPath {
    static let tabs = "TabViewController"
    static let checkIn = "TabViewController/CheckInViewController"
    static let modalNavigation = "TabViewController/CheckInViewController/CheckInModalNavigationController"
    static let modal = modalNavigation + "/CheckInModalViewController"
    static let venuesNavigation = "TabViewController/VenuesNavigationController"
    static let venueList = venuesNavigation + "/VenueListViewController"
    static let venueDetail = venuesNavigation + "/VenueDetailViewController"
}

/// A restoring mark that records what was done to it.
final class SpyMark: RestoringMarkStore {
    var value: Bool
    var calls: [String] = []
    init(_ value: Bool = false) { self.value = value }
    func isSet() throws -> Bool { calls.append("isSet"); return value }
    func set() throws { calls.append("set"); value = true }
    func clear() throws { calls.append("clear"); value = false }
}

/// A launched app (fresh unless given candidates).
func launchedApp(
    build: String = "7", camera: PermissionState = .denied, venues: [Venue] = Venue.catalog,
    candidates: [ArchiveCandidate] = [], mark: any RestoringMarkStore = MemoryRestoringMark()
) -> CheckInApp {
    let app = CheckInApp(buildNumber: build, camera: camera, venues: venues, wallClock: { 1_000 })
    app.launch(candidates: candidates, restoringMark: mark)
    return app
}

/// Seed 002 up to the kill: open the modal, type into it, find the camera denied, open Settings.
func playSeedUntilSettings(_ app: CheckInApp) throws -> [AppEffect] {
    try app.tap("tab:check-in")
    try app.tap("check-in")
    try app.type("venue", "Blue Bottle Coffee")
    try app.type("party-size", "4")
    try app.type("note", "window seat, please")
    try app.tap("scan")
    return try app.tap("open-settings")
}

/// The archive of `app` as a candidate from `source`.
func candidate(_ app: CheckInApp, source: String = "file") throws -> ArchiveCandidate {
    ArchiveCandidate(source: source, bytes: try app.preserve().bytes)
}

/// `state` with the parts that differ between two instances (launch, restoredVia, lifecycle) taken from `other`.
func comparable(_ state: CheckInState, like other: CheckInState) -> CheckInState {
    var state = state
    state.launch = other.launch
    state.restoredVia = other.restoredVia
    state.lifecycle = other.lifecycle
    return state
}
