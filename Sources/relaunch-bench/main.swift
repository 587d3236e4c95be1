import RelaunchApp
// relaunch-bench: how long preserving and restoring the seed scenario takes, and how big its archive is.
//
// Usage: relaunch-bench [RUNS] [--screen]
//   RUNS      timed runs of each measurement (default 2000), after 100 warm-up runs
//   --screen  also print the seed screen before and after a restore
import CheckIn
import Glibc
import RelaunchContract
import RestorationKit

let arguments = Array(CommandLine.arguments.dropFirst())
let runs = arguments.lazy.compactMap { Int($0) }.first ?? 2000
let warmUp = 100
let clock = ContinuousClock()

/// The seed scenario: check-in modal open with everything typed, camera denied, about to open Settings.
func seedApp() throws -> CheckInApp {
    let app = CheckInApp(buildNumber: "bench", camera: .denied)
    app.launch(candidates: [], restoringMark: MemoryRestoringMark())
    try app.tap("venue:blue-bottle")
    try app.tap("tab:check-in")
    try app.tap("check-in")
    try app.type("party-size", "4")
    try app.type("note", "Window seat please, we are bringing a birthday cake for Sam.")
    try app.tap("scan")
    return app
}

/// Microseconds of `duration`, with fractions.
func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

/// Runs `body` warm-up + `runs` times and returns the timed samples in microseconds, sorted.
func measure(_ body: () throws -> Void) rethrows -> [Double] {
    for _ in 0..<warmUp { try body() }
    var samples: [Double] = []
    samples.reserveCapacity(runs)
    for _ in 0..<runs { samples.append(microseconds(try clock.measure(body))) }
    return samples.sorted()
}

/// `label: median … µs, p95 … µs` of `samples` (nearest rank, RelaunchContract's `percentile`).
func line(_ label: String, _ samples: [Double]) -> String {
    func format(_ p: Double) -> String { percentile(p, of: samples).map { String(($0 * 10).rounded() / 10) } ?? "–" }
    return "\(label): median \(format(0.5)) µs, p95 \(format(0.95)) µs"
}

do {
    let app = try seedApp()
    let bytes = try app.preserve().bytes
    let preserve = try measure { _ = try app.preserve() }
    var last: LaunchReport?
    let restore = measure {
        let fresh = CheckInApp(buildNumber: "bench", camera: .denied)
        last = fresh.launch(candidates: [ArchiveCandidate(source: "file", bytes: bytes)], restoringMark: MemoryRestoringMark())
    }
    let decode = try measure { _ = try ArchiveCodec.decode(bytes, expectedBuild: "bench") }

    print("relaunch-bench: seed scenario (check-in modal open, note typed), \(runs) runs each")
    print("archive size: \(bytes.count) bytes")
    print(line("preserve (walk + encode)", preserve))
    print(line("restore (decode + rebuild, fresh app instance)", restore))
    print(line("decode only (checksum + parse)", decode))
    if arguments.contains("--screen") {
        print("\nscreen before:\n\(app.screen())")
        let fresh = CheckInApp(buildNumber: "bench", camera: .allowed)
        fresh.launch(candidates: [ArchiveCandidate(source: "file", bytes: bytes)], restoringMark: MemoryRestoringMark())
        print("screen after restore (camera now allowed):\n\(fresh.screen())")
        print("state: \(fresh.stateJSON())")
    }
    precondition(last?.outcome == .restored && last?.restoredCount == 7, "the benchmark's restore did not restore everything")
} catch {
    print("relaunch-bench: \(error)")
    exit(1)
}
