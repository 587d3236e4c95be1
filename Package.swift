// swift-tools-version:6.1
// Relaunch: UIKit-style state restoration, a permission daemon and a demo app under systemd.
import PackageDescription

// Relaunch builds on Linux only: it is made of systemd (libsystemd's sd-bus, sd_notify and the journal),
// so the manifest declares no Apple platform; elsewhere the build stops at CSystemd's pkg-config.
//
// Every Relaunch app's executable links the Swift runtime statically: a relaunch pays no dynamic
// loading of libswiftCore, Foundation and friends (tests/sandbox/measure-relaunch: exec → main()), and
// the binary needs no toolchain at run time. Copy `linkerSettings: relaunchAppLinking` to a new app.
// FoundationEssentials' static archive needs its two helper archives named, which swiftc's
// -static-stdlib does not add (SwiftPM's --static-swift-stdlib would, but for every executable and
// only from the command line). They are the toolchain's own names (usr/lib/swift_static/linux/
// lib_FoundationCollections.a, lib_FoundationCShims.a in Swift 6.3): a toolchain that renames them
// fails the link of every app, so scripts/test (and CI) stops at its first build.
let relaunchAppLinking: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib"]), .linkedLibrary("_FoundationCollections"), .linkedLibrary("_FoundationCShims"),
]

let package = Package(
    name: "Relaunch",
    products: [
        .executable(name: "checkin-demo", targets: ["checkin-demo"]),
        .executable(name: "banca-demo", targets: ["banca-demo"]),
        .executable(name: "countries-demo", targets: ["countries-demo"]),
        .executable(name: "colorboard-demo", targets: ["colorboard-demo"]),
        .executable(name: "notes-demo", targets: ["notes-demo"]),
        .executable(name: "permissiond", targets: ["permissiond"]),
        .executable(name: "relaunchctl", targets: ["relaunchctl"]),
        .executable(name: "relaunch-bench", targets: ["relaunch-bench"]),
        .executable(name: "relaunch-app-unit", targets: ["relaunch-app-unit"]),
        .library(name: "RestorationKit", targets: ["RestorationKit"]),
        .library(name: "RelaunchHost", targets: ["RelaunchHost", "RelaunchApp"]),
        .library(name: "RelaunchTesting", targets: ["RelaunchTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // `swift package generate-documentation`: the DocC catalogs of the library products.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: C
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        .target(
            name: "CSDBus",
            dependencies: ["CSystemd"]
        ),

        // MARK: Libraries
        .target(name: "RelaunchContract"),
        .target(name: "RelaunchBus", dependencies: ["RelaunchContract", "Systemd"]),
        // A registered app reached from outside (its unit, App1, permissiond) with event-driven waits:
        // under RelaunchTesting's TestedApp and relaunchctl's `permission set --wait`; not a product.
        .target(name: "RelaunchDriver", dependencies: ["RelaunchBus", "RelaunchContract", "Systemd"]),
        .target(name: "RelaunchApp", dependencies: ["RestorationKit", "RelaunchContract"]),
        .target(
            name: "RelaunchHost",
            dependencies: [
                "RelaunchApp", "RestorationKit", "RelaunchContract", "RelaunchBus", "Systemd",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .target(name: "RestorationKit"),
        // Permission-toggle tests in Swift against apps running under systemd (a library product).
        // What every test target shares (commands as another user, temporary folders, bounded waits,
        // journal matching, the apps' fake host); not a product: STYLE 18.
        .target(name: "RelaunchTestSupport", dependencies: ["RelaunchApp", "RelaunchContract", "RestorationKit", "Systemd"]),
        .target(name: "RelaunchTesting", dependencies: ["RelaunchDriver", "RelaunchBus", "RelaunchContract", "Systemd"]),
        .target(name: "JournalReview", dependencies: ["RelaunchContract"]),
        // relaunchctl's core: CLIError and its exit codes, the bus clients, which app a command drives
        // (AppTarget), a unit's state and journal queries; the scenarios and `relaunchctl journal` build on it.
        .target(name: "RelaunchctlCore", dependencies: ["RelaunchContract", "RelaunchBus", "Systemd"]),
        .target(
            name: "ScenarioKit",
            dependencies: ["RelaunchctlCore", "RelaunchContract", "RelaunchBus", "RelaunchDriver", "Systemd"]
        ),
        // `relaunchctl journal` in a library of its own: RelaunchctlTests checks its plain-argument
        // reader against ArgumentParser's reading of the same arguments.
        .target(
            name: "RelaunchctlJournal",
            dependencies: [
                "JournalReview", "RelaunchContract", "RelaunchctlCore", "Systemd",
                // The system's SQLite alone (GRDB's own module of it), to read permissiond's history:
                // GRDB itself would bring Foundation into relaunchctl's static runtime.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "CheckIn",
            dependencies: ["RestorationKit", "RelaunchContract", "RelaunchApp"]
        ),
        .target(name: "Banca", dependencies: ["RestorationKit", "RelaunchContract", "RelaunchApp"]),
        .target(
            name: "Countries",
            dependencies: ["RestorationKit", "RelaunchContract", "RelaunchApp"],
            // The data file, compiled in: an installed binary needs no file beside it.
            resources: [.embedInCode("Resources/countries.csv")]
        ),
        .target(
            name: "Colorboard",
            dependencies: ["RestorationKit", "RelaunchContract", "RelaunchApp"],
            exclude: ["Storyboard/Colorboard.storyboard"]
        ),
        // notes-demo's app: notes in several windows, each a scene restored from its saved activity.
        .target(name: "Notes", dependencies: ["RestorationKit", "RelaunchContract", "RelaunchApp"]),
        .target(
            name: "Systemd",
            dependencies: [
                "CSystemd", "CSDBus",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // permissiond's logic (the bus server, the writer, the outbox, callers, polkit, systemd):
        // a library so that PermissionDaemonTests can reach it; not a product.
        .target(
            name: "PermissionDaemon",
            dependencies: [
                "PermissionStore", "RelaunchContract", "RelaunchBus", "Systemd",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "PermissionStore",
            dependencies: [
                "RelaunchContract",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),

        // MARK: Executables
        .executableTarget(
            name: "checkin-demo", dependencies: ["CheckIn", "RelaunchHost", "RelaunchContract"],
            linkerSettings: relaunchAppLinking),
        .executableTarget(
            name: "banca-demo", dependencies: ["Banca", "RelaunchHost", "RelaunchContract"],
            linkerSettings: relaunchAppLinking),
        .executableTarget(
            name: "countries-demo", dependencies: ["Countries", "RelaunchHost", "RelaunchContract"],
            linkerSettings: relaunchAppLinking),
        .executableTarget(
            name: "colorboard-demo", dependencies: ["Colorboard", "RelaunchHost", "RelaunchContract"],
            linkerSettings: relaunchAppLinking),
        .executableTarget(
            name: "notes-demo", dependencies: ["Notes", "RelaunchHost", "RelaunchContract"],
            linkerSettings: relaunchAppLinking),
        .executableTarget(
            name: "permissiond",
            dependencies: [
                "PermissionDaemon", "PermissionStore", "RelaunchContract",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "relaunchctl",
            dependencies: [
                "RelaunchContract", "RelaunchBus", "RelaunchDriver", "RestorationKit", "RelaunchctlCore", "RelaunchctlJournal",
                "ScenarioKit",
                "Systemd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Every scenario step and every `relaunchctl journal` starts it anew: the static runtime
            // takes a third off its start-up.
            linkerSettings: relaunchAppLinking
        ),
        // polkit's rule runs it on every kill permissiond asks for, while the app waits: the
        // registrations read by RelaunchContract's parser, without Foundation, linked fully static
        // (-static-executable: no dynamic loader, no libstdc++ to load and relocate), 1 ms a call where
        // -static-stdlib took 3 (docs/MEASUREMENTS.md).
        .executableTarget(
            name: "relaunch-app-unit", dependencies: ["RelaunchContract"],
            linkerSettings: [.unsafeFlags(["-static-executable"])]),
        .executableTarget(
            name: "relaunch-bench",
            dependencies: ["RestorationKit", "CheckIn", "RelaunchContract", "RelaunchApp"]
        ),

        // MARK: Tests
        .testTarget(name: "RelaunchContractTests", dependencies: ["RelaunchContract", "RelaunchTestSupport"]),
        .testTarget(name: "RelaunchBusTests", dependencies: ["RelaunchBus", "RelaunchContract", "Systemd"]),
        .testTarget(name: "RestorationKitTests", dependencies: ["RestorationKit", "RelaunchTestSupport"]),
        .testTarget(name: "CheckInTests", dependencies: ["CheckIn", "RestorationKit", "RelaunchApp"]),
        .testTarget(name: "BancaTests", dependencies: ["Banca", "RestorationKit", "RelaunchApp", "RelaunchContract"]),
        .testTarget(
            name: "CountriesTests",
            dependencies: ["Countries", "RestorationKit", "RelaunchApp", "RelaunchContract", "RelaunchTestSupport"]),
        .testTarget(
            name: "ColorboardTests",
            dependencies: ["Colorboard", "RestorationKit", "RelaunchApp", "RelaunchContract", "RelaunchTestSupport"]),
        .testTarget(
            name: "NotesTests",
            dependencies: ["Notes", "RestorationKit", "RelaunchApp", "RelaunchContract", "RelaunchTestSupport"]),
        .testTarget(name: "RelaunchHostTests", dependencies: [
            "RelaunchHost", "RelaunchApp", "RelaunchBus", "RelaunchContract", "RestorationKit", "RelaunchTestSupport",
            "Systemd", .product(name: "Logging", package: "swift-log"), .product(name: "InMemoryLogging", package: "swift-log"),
        ]),
        .testTarget(
            name: "SystemdTests",
            dependencies: [
                "Systemd", "RelaunchTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "PermissionStoreTests", dependencies: ["PermissionStore", "RelaunchTestSupport"], exclude: ["Fixtures"]),
        .testTarget(
            name: "PermissionDaemonTests",
            dependencies: [
                "PermissionDaemon", "PermissionStore", "RelaunchBus", "RelaunchContract", "RelaunchTestSupport", "Systemd",
                .product(name: "Logging", package: "swift-log")],
            exclude: ["Fixtures"]
        ),
        // Behaviour checks of the apps under the sandbox's systemd, on RelaunchTesting: tests/sandbox/run
        // runs them inside it; elsewhere they are disabled.
        .testTarget(name: "AppBehaviourTests", dependencies: ["RelaunchTesting", "RelaunchDriver", "RelaunchTestSupport", "Systemd"]),
        // The end-to-end checks of permissiond, the units and the apps, run inside a sandbox by
        // tests/sandbox/run (RELAUNCH_SANDBOX_CHECKS=1); elsewhere the suites are disabled.
        .testTarget(
            name: "SandboxCheckTests",
            dependencies: ["RelaunchTesting", "RelaunchDriver", "RelaunchTestSupport", "RelaunchContract", "Systemd"]
        ),
        .testTarget(
            name: "RelaunchTestingTests",
            dependencies: ["RelaunchTesting", "RelaunchDriver", "CheckIn", "RelaunchApp", "RelaunchContract", "RestorationKit"]
        ),
        .testTarget(name: "JournalReviewTests", dependencies: ["JournalReview", "RelaunchContract"]),
        .testTarget(name: "RelaunchctlCoreTests", dependencies: ["RelaunchctlCore", "RelaunchContract", "Systemd"]),
        .testTarget(
            name: "ScenarioKitTests",
            dependencies: ["ScenarioKit", "RelaunchBus", "RelaunchctlCore", "RelaunchContract", "RelaunchTestSupport"]),
        .testTarget(
            name: "RelaunchctlTests",
            // Not on the relaunchctl target: the tests run the built binary (swift build builds every
            // product first), and an executable target's static runtime would ask the test bundle's link
            // for static Testing and XCTest.
            dependencies: [
                "CheckIn", "RestorationKit", "RelaunchContract", "RelaunchApp", "RelaunchctlJournal", "PermissionStore",
                "RelaunchTestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ]
)

// Strictness once, for every Swift target.
for target in package.targets where [.executable, .test, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
