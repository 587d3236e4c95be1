// Issue 13's speed goals as ordo-one/benchmark benchmarks: preserve and restore every shape at every
// size (named OPERATION.SHAPE.COUNT: benchmark 1.38.1 looks a threshold file up by the name as it
// is, but writes one with spaces made underscores, so names have no spaces). Each benchmark's p90
// wall clock must stay at or under 2 µs per controller: Thresholds/ (written by ../thresholds)
// holds 1 µs per controller and each benchmark allows 1 µs per controller either way, so
// `swift package benchmark thresholds check` says EQUAL from 0 to 2 µs per controller and WORSE
// above (../run tells them apart). Foundation's coders run beside them at 10k controllers for
// reference; restoration-table measures the ratios.
import Benchmark
import Foundation
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
            // 1 µs per controller either way of the stored 1 µs per controller (in nanoseconds).
            let thresholds: [BenchmarkMetric: BenchmarkThresholds] = [
                .wallClock: BenchmarkThresholds(relative: [:], absolute: [.p90: 1_000 * count * batch])
            ]
            // Each benchmark makes its hierarchy in its setup and lets it go in its teardown, so that
            // no other benchmark's 100k controllers sit in the heap while it runs.
            nonisolated(unsafe) var preserving: Workload?
            Benchmark(
                "preserve.\(shape.rawValue).\(count)\(suffix)", configuration: .init(thresholds: thresholds),
                closure: { benchmark in
                    guard let workload = preserving else { return }
                    benchmark.startMeasurement()
                    for _ in 0..<batch { blackHole(workload.preserve()) }
                    benchmark.stopMeasurement()
                },
                setup: { preserving = Workload(shape: shape, count: count) },
                teardown: { preserving = nil })
            nonisolated(unsafe) var restoring: Workload?
            Benchmark(
                "restore.\(shape.rawValue).\(count)\(suffix)", configuration: .init(thresholds: thresholds),
                closure: { benchmark in
                    guard let workload = restoring else { return }
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
                },
                setup: { restoring = Workload(shape: shape, count: count) },
                teardown: { restoring = nil })
        }
    }

    // Foundation's coders on the 10k tab bar's records, for reference (restoration-table measures the
    // ratios); each with a workload of its own, made in its setup.
    let peers = Benchmark.Configuration(maxDuration: .seconds(3), maxIterations: 50, thresholds: [:])
    nonisolated(unsafe) var reference: (workload: Workload, plist: Data, json: Data)?
    let makeReference = {
        let workload = Workload(shape: .tabBar, count: 10_000)
        reference = (workload, workload.plistEncode(), workload.jsonEncode())
    }
    let dropReference = { reference = nil }
    Benchmark(
        "PropertyListEncoder.tab-bar.10000", configuration: peers,
        closure: { _ in if let reference { blackHole(reference.workload.plistEncode()) } },
        setup: makeReference, teardown: dropReference)
    Benchmark(
        "PropertyListDecoder.tab-bar.10000", configuration: peers,
        closure: { benchmark in
            guard let reference else { return }
            benchmark.startMeasurement()
            let decoded = reference.workload.plistDecode(reference.plist)
            benchmark.stopMeasurement()
            blackHole(decoded)
        },
        setup: makeReference, teardown: dropReference)
    Benchmark(
        "JSONEncoder.tab-bar.10000", configuration: peers,
        closure: { _ in if let reference { blackHole(reference.workload.jsonEncode()) } },
        setup: makeReference, teardown: dropReference)
    Benchmark(
        "JSONDecoder.tab-bar.10000", configuration: peers,
        closure: { benchmark in
            guard let reference else { return }
            benchmark.startMeasurement()
            let decoded = reference.workload.jsonDecode(reference.json)
            benchmark.stopMeasurement()
            blackHole(decoded)
        },
        setup: makeReference, teardown: dropReference)
}
