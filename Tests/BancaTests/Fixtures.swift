@testable import Banca
import RelaunchApp
import RelaunchContract
import RestorationKit
import Testing

/// The seed's paths, joined.
enum SeedPath {
    static let main = "MainNC"
    static let converter = "MainNC/ConverterViewController"
    static let scan = "MainNC/ScanViewController"
    static let aboutNavigation = converter + "/AboutNC"
    static let about = aboutNavigation + "/AboutViewController"
    static let currenciesNavigation = converter + "/CurrenciesNC"
    static let currencies = currenciesNavigation + "/CurrenciesViewController"
}

/// A Banca app with what its host would keep for it: the data it last saved, handed to the next instance.
final class Device {
    var data: [UInt8]?
    var camera: PermissionState
    let build: String
    var currencies: [Currency]

    init(camera: PermissionState = .denied, build: String = "7", currencies: [Currency] = Currency.catalog) {
        self.camera = camera
        self.build = build
        self.currencies = currencies
    }

    /// A new instance: its data loaded, then launched from `candidates`.
    func launch(candidates: [ArchiveCandidate] = [], mark: any RestoringMarkStore = MemoryRestoringMark()) throws -> BancaApp {
        let app = BancaApp(buildNumber: build, camera: camera, currencies: currencies, wallClock: { 1_000 })
        if let data { try app.loadData(data) }
        app.launch(candidates: candidates, restoringMark: mark)
        return app
    }

    /// Takes in what the app asked its host to do with its data.
    @discardableResult
    func keep(_ effects: [AppEffect]) -> [AppEffect] {
        for case .saveData(let bytes) in effects { data = bytes }
        return effects
    }

    /// Taps `element` and keeps what it saved.
    @discardableResult
    func tap(_ app: BancaApp, _ element: String) throws -> [AppEffect] { keep(try app.tap(element)) }

    /// Sends `app` to the background, as the host does, and launches a new instance from what it preserved.
    func backgroundAndRelaunch(_ app: BancaApp) throws -> BancaApp {
        app.background()
        return try launch(candidates: [candidate(app)])
    }
}

/// The archive of `app` as a candidate from `source`.
func candidate(_ app: BancaApp, source: String = "file") throws -> ArchiveCandidate {
    ArchiveCandidate(source: source, bytes: try app.preserve().bytes)
}

/// `state` with what may differ after a relaunch (launch, lifecycle, restoredVia, lastExit) taken from `other`.
func comparable(_ state: BancaState, like other: BancaState) -> BancaState {
    var state = state
    state.common.launchOutcome = other.common.launchOutcome
    state.common.launchReason = other.common.launchReason
    state.common.lifecycle = other.common.lifecycle
    state.common.restoredVia = other.common.restoredVia
    state.common.lastExit = other.common.lastExit
    return state
}

/// A seeded random number generator (SplitMix64), so a failing walk can be played again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
