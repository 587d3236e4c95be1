// Issue 13's speed goals as ordo-one/benchmark benchmarks: preserve and restore every shape at every
// size (named OPERATION.SHAPE.COUNT: benchmark 1.38.1 looks a threshold file up by the name as it
// is, but writes one with spaces made underscores, so names have no spaces). Each benchmark's p90
// wall clock must stay at or under 2 µs per controller: Thresholds/ (written by ../thresholds)
// holds 1 µs per controller and each benchmark allows 1 µs per controller either way, so
// `swift package benchmark thresholds check` says EQUAL from 0 to 2 µs per controller and WORSE
// above (../run tells them apart). Foundation's coders run beside them at 10k controllers for
// reference; restoration-table measures the ratios.
import Benchmark
import BenchmarkTrees

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        // Only time: counting allocations (the malloc interposer's hook) slows every malloc and free.
        metrics: [.wallClock],
        timeUnits: .microseconds,
        warmupIterations: 2,
        maxDuration: .seconds(2),
        maxIterations: 1_000)

    for shape in Shape.allCases {
        for count in [10, 100, 1_000, 10_000, 100_000] {
            // Below 10,000 controllers an iteration repeats the operation (`batch` times, in the name)
            // so that it lasts long enough for the clock, the runner's own work and a moment's
            // interruption not to count.
            let batch = max(1, 10_000 / count)
            let suffix = batch == 1 ? "" : ".x\(batch)"
            // Made once, when the first of its benchmarks runs.
            nonisolated(unsafe) var made: Workload?
            let workload = { () -> Workload in
                if let made { return made }
                let workload = Workload(shape: shape, count: count)
                made = workload
                return workload
            }
            // 1 µs per controller either way of the stored 1 µs per controller (in nanoseconds).
            let ceiling = Benchmark.Configuration(
                thresholds: [.wallClock: BenchmarkThresholds(relative: [:], absolute: [.p90: 1_000 * count * batch])])
            Benchmark("preserve.\(shape.rawValue).\(count)\(suffix)", configuration: ceiling) { benchmark in
                let workload = workload()
                benchmark.startMeasurement()
                for _ in 0..<batch { blackHole(workload.preserve()) }
                benchmark.stopMeasurement()
            }
            Benchmark("restore.\(shape.rawValue).\(count)\(suffix)", configuration: ceiling) { benchmark in
                let workload = workload()
                if batch == 1 {
                    benchmark.startMeasurement()
                    let restored = workload.restore()
                    benchmark.stopMeasurement()
                    blackHole(restored)  // released after the measurement, like the peers' values
                } else {
                    // Each restored application is released before the next restore (and counted):
                    // keeping a batch alive would measure a heap that grows instead of a launch.
                    benchmark.startMeasurement()
                    for _ in 0..<batch { blackHole(workload.restore()) }
                    benchmark.stopMeasurement()
                }
            }
        }
    }

    let reference = Workload(shape: .tabBar, count: 10_000)
    let plist = reference.plistEncode()
    let json = reference.jsonEncode()
    let peers = Benchmark.Configuration(maxDuration: .seconds(3), maxIterations: 50, thresholds: [:])
    Benchmark("PropertyListEncoder.tab-bar.10000", configuration: peers) { _ in blackHole(reference.plistEncode()) }
    Benchmark("PropertyListDecoder.tab-bar.10000", configuration: peers) { benchmark in
        benchmark.startMeasurement()
        let decoded = reference.plistDecode(plist)
        benchmark.stopMeasurement()
        blackHole(decoded)
    }
    Benchmark("JSONEncoder.tab-bar.10000", configuration: peers) { _ in blackHole(reference.jsonEncode()) }
    Benchmark("JSONDecoder.tab-bar.10000", configuration: peers) { benchmark in
        benchmark.startMeasurement()
        let decoded = reference.jsonDecode(json)
        benchmark.stopMeasurement()
        blackHole(decoded)
    }
}
