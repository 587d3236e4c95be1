import FoundationEssentials
@testable import Countries
import RelaunchApp
import RelaunchContract
import RelaunchTestSupport
import RestorationKit
import Testing

/// Issue 11's property: any walk through the screens (taps chosen at random from `Elements()`), then
/// background and a kill, comes back with the same state JSON but for launch, lifecycle, restoredVia
/// and lastExit.
@Suite("Countries random walks")
struct RandomWalkTests {
    /// The run's seed: `COUNTRIES_WALK_SEED` when set (to replay a failure), else a fresh one. Printed,
    /// and part of every failure message; walk N of the run uses seed + N.
    static let seed: UInt64 = {
        let seed = ProcessInfo.processInfo.environment["COUNTRIES_WALK_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0..<1_000_000)
        print("Countries random walks: seed \(seed) (replay with COUNTRIES_WALK_SEED=\(seed))")
        return seed
    }()

    /// Each failure message holds its walk, which replays it (`tap` each name in turn, `foreground` as written).
    @Test("300 walks of up to 40 taps, each relaunched twice from what it preserved", arguments: 0..<3)
    func walks(batch: Int) throws {
        for walkNumber in (batch * 100)..<(batch * 100 + 100) {
            var random = WalkGenerator(seed: Self.seed &+ UInt64(walkNumber))
            let host = FakeHost<CountriesApp>()
            var app = try host.relaunch()
            var walk: [String] = []
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                let elements = app.elements()
                guard let element = elements.randomElement(using: &random) else {
                    try host.perform(app.foreground(), of: app)
                    walk.append("foreground")
                    continue
                }
                walk.append(element.name)
                try host.tap(app, element.name)
            }
            try host.background(app)
            let expected = comparableJSON(app.state())
            let expectedScreen = app.screen()
            for _ in 0..<2 {
                app = try host.relaunch()
                #expect(comparableJSON(app.state()) == expected, "seed \(Self.seed), walk \(walkNumber): \(walk.joined(separator: " "))")
                #expect(app.state().common.launchOutcome == "restored", "seed \(Self.seed), walk \(walkNumber): \(walk.joined(separator: " "))")
                try host.background(app)
                #expect(app.screen() == expectedScreen, "seed \(Self.seed), walk \(walkNumber): the screen differs after \(walk.joined(separator: " "))")
            }
        }
    }
}

/// A seeded random number generator (SplitMix64), so a failing walk can be played again.
struct WalkGenerator: RandomNumberGenerator {
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
