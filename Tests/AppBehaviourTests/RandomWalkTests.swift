import Foundation
import RelaunchContract
@testable import RelaunchTesting
import Testing

/// Random walks: for every registered app, taps and typing chosen at random from what its screen
/// offers (`elements()`), then background and SIGKILL; the relaunched instance must restore exactly
/// the state the killed one showed, less the keys a relaunch changes by design (launch, lifecycle,
/// restoredVia, lastExit). Each round starts where the last one's relaunch left off, so restored
/// state is walked on again. (Formerly tests/sandbox/checks/walk.sh.)
///
/// Seeded, and the same on any machine: each app walks RELAUNCH_WALK_ROUNDS (default 3) rounds of
/// RELAUNCH_WALK_STEPS (default 20) steps, the choices drawn from the seed alone; the seed is printed
/// and RELAUNCH_WALK_SEED=N replays it.
@Suite(.serialized, .enabled(if: Sandbox.isInside, Sandbox.reason))
struct RandomWalkTests {
    /// Numbers (amounts, slider values), words, text with blanks and non-ASCII letters, and input an
    /// app should refuse (empty, a number out of range, text where a number belongs).
    static let texts = ["1", "3", "5", "12", "20", "42", "7.5", "0", "128", "255", "300", "-1", "Zürich", "a b", "Smith & Co", "", "x"]

    static let environment = ProcessInfo.processInfo.environment
    static let seed = environment["RELAUNCH_WALK_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0..<32768)
    static let rounds = environment["RELAUNCH_WALK_ROUNDS"].flatMap(Int.init) ?? 3
    static let steps = environment["RELAUNCH_WALK_STEPS"].flatMap(Int.init) ?? 20

    /// The registered apps that serve App1, in id order.
    static var apps: [String] {
        AppRegistry.load().apps.values.filter { $0.busName != nil }.map(\.app).sorted()
    }

    /// The state without the keys a relaunch changes by design.
    private func comparable(_ state: AppState) -> JSONValue {
        guard case .object(var members) = state.json else { return state.json }
        for key in ["launch", "lifecycle", "restoredVia", "lastExit"] { members[key] = nil }
        return .object(members)
    }

    @Test func everyRegisteredAppIsWalked() {
        #expect(!Self.apps.isEmpty, "no registered app serves App1 here: the walk below walked nothing")
    }

    /// Taps `element`, or types `text` into it; an input the app refuses must be refused in one line.
    /// - Returns: What was done, for the trace.
    private func perform(_ element: AppElement, text: String, on app: TestedApp) async -> [String] {
        let done = element.kind == .type ? "type \(element.name) \"\(text)\"" : "tap \(element.name)"
        let result: Result<Void, RelaunchTestingError>
        do {
            if element.kind == .type {
                try await app.type(text, into: element.name)
            } else {
                try await app.tap(element.name)
            }
            result = .success(())
        } catch {
            result = .failure(error)
        }
        guard case .failure(let error) = result else { return [done] }
        #expect(error.code == .rejected, "\(app.id): \(done) failed: \(error.message)")
        #expect(!error.message.contains("\n"), "\(app.id): a refusal of more than one line: \(error.message)")
        return [done, "  refused: \(error.message)"]
    }

    @Test(arguments: apps.enumerated().map { $0 })
    func aWalkComesBackAfterEveryKill(index: Int, appID: String) async throws {
        // Each app its own stream of choices, so adding an app does not change another's walk.
        var random = WalkRandom(seed: Self.seed &* 31 &+ UInt64(index + 1))
        print("walk of \(appID): seed \(Self.seed), \(Self.rounds) rounds of \(Self.steps) steps (replay with RELAUNCH_WALK_SEED=\(Self.seed))")
        let app = try await TestedApp.attach(appID, timeout: .seconds(120))
        try await app.quit(force: true)
        try await app.launch()
        var trace: [String] = []
        for round in 1...Self.rounds {
            trace.append("round \(round)")
            try await app.foreground()
            for _ in 1...Self.steps {
                var elements = try await app.elements()
                if elements.isEmpty {
                    // In the background (open-settings goes to Settings) nothing is on screen: come
                    // back, as a user does. In the foreground every screen must offer something.
                    trace.append("foreground (nothing on screen)")
                    try await app.foreground()
                    elements = try await app.elements()
                    try #require(!elements.isEmpty, "\(appID): the screen in the foreground offers nothing; \(trace)")
                }
                let element = elements[Int(random.next() % UInt64(elements.count))]
                let text = Self.texts[Int(random.next() % UInt64(Self.texts.count))]
                trace.append(contentsOf: await perform(element, text: text, on: app))
            }
            try await app.background()
            let before = comparable(try await app.state())
            trace.append("background, SIGKILL")
            let back = try await app.kill()
            try #require(back.outcome == .restored, "\(appID): came back \(back.outcome.rawValue), not restored; \(trace.joined(separator: "; "))")
            let after = comparable(try await app.state())
            try #require(before == after, "\(appID): the state after the relaunch differs from the state before the kill:\nbefore \(before)\nafter  \(after)\nsteps: \(trace.joined(separator: "; "))")
        }
        print("\(appID): covered \(Self.rounds) walks of \(Self.steps) steps, each restored after a SIGKILL")
    }
}

/// SplitMix64: the walk's choices from its seed alone.
struct WalkRandom {
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
