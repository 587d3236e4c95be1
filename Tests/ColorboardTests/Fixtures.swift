@testable import Colorboard
import RelaunchApp
import RelaunchContract
import RestorationKit
import Testing

/// The seed's paths, joined.
enum SeedPath {
    static let navigation = "PaletteNavigationController"
    static let palette = navigation + "/BNRPaletteViewController"
    static let pushedEditor = navigation + "/BNRColorViewController"
    static let newColorNavigation = palette + "/NewColorNavigationController"
    static let presentedEditor = newColorNavigation + "/BNRColorViewController"
}

/// A launched app: its data model loaded from `data`, restored from `archive` when given.
func launchedApp(
    build: String = "1", photos: PermissionState = .denied, data: [UInt8]? = nil, archive: [UInt8]? = nil,
    mark: any RestoringMarkStore = MemoryRestoringMark()
) throws -> ColorboardApp {
    let app = ColorboardApp(buildNumber: build, photos: photos, wallClock: { 1_000 })
    if let data { try app.loadData(data) }
    app.launch(candidates: archive.map { [ArchiveCandidate(source: "file", bytes: $0)] } ?? [], restoringMark: mark)
    return app
}

/// A new instance after `app` went to the background and was killed: the archive it preserved and
/// the data it holds (each save already went to the host).
func relaunched(_ app: ColorboardApp, photos: PermissionState? = nil) throws -> ColorboardApp {
    let bytes = try app.preserve().bytes
    return try launchedApp(build: app.buildNumber, photos: photos ?? app.photos, data: app.store.data(), archive: bytes)
}

/// The state JSON without the keys a relaunch changes (launch, lifecycle, restoredVia, lastExit).
func comparableJSON(_ state: ColorboardState) -> String {
    var state = state
    state.common.launchOutcome = "-"
    state.common.launchReason = nil
    state.common.lifecycle = "-"
    state.common.restoredVia = [:]
    state.common.lastExit = nil
    return state.json
}

/// Opens a new color's editor and types into it.
func addColor(_ app: ColorboardApp, name: String = "Teal", red: String = "0", green: String = "0.5", blue: String = "0.5") throws {
    try app.tap("add")
    try app.type("name", name)
    try app.type("red", red)
    try app.type("green", green)
    try app.type("blue", blue)
}

/// A deterministic random number generator (Knuth's MMIX linear congruential one, high bits
/// mixed down), so that a failing walk can be replayed from its seed.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 29)
    }
}
