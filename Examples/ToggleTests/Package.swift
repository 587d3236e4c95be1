// swift-tools-version:6.1
// Permission-toggle tests of the Relaunch seed apps, written with RelaunchTesting: a package of its
// own that depends on Relaunch by path, as an app team's test package would.
//
// Run them where the apps run under systemd:
//   scripts/sandbox up && scripts/sandbox exec -- swift test --package-path Examples/ToggleTests
import PackageDescription

let package = Package(
    name: "ToggleTests",
    dependencies: [
        .package(name: "Relaunch", path: "../.."),
    ],
    targets: [
        // One toggle step (set → killed → relaunched → restored → state read), timed over many steps:
        // tests/bench/toggle/run prints it beside the same step done with relaunchctl processes.
        .executableTarget(
            name: "toggle-bench",
            dependencies: [.product(name: "RelaunchTesting", package: "Relaunch")]
        ),
        .testTarget(
            name: "ToggleTests",
            dependencies: [.product(name: "RelaunchTesting", package: "Relaunch")]
        ),
    ]
)
