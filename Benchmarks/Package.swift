// swift-tools-version:6.1
// Benchmarks for RestorationKit (issue 13), apart from the main package so that its build and CI
// never build the benchmark dependency. Needs Debian's libjemalloc-dev. Run `Benchmarks/run`.
import PackageDescription

let package = Package(
    name: "RelaunchBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Relaunch", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The hierarchies, their Codable equivalents and the timed operations, shared by both runners.
        .target(
            name: "BenchmarkTrees",
            dependencies: [.product(name: "RestorationKit", package: "Relaunch")]
        ),
        // ordo-one/benchmark's runner: every shape and size, with the goals as thresholds.
        .executableTarget(
            name: "Restoration",
            dependencies: [
                "BenchmarkTrees",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Restoration",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The README's table: RestorationKit and Foundation's coders in alternating runs, with ratios.
        .executableTarget(name: "restoration-table", dependencies: ["BenchmarkTrees"]),
    ]
)

for target in package.targets where [.executable, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
