import Foundation
@testable import RelaunchTesting
import Systemd
import Testing

/// These tests drive the apps of a running sandbox: `tests/sandbox/run` runs them inside it with
/// RELAUNCH_BEHAVIOUR_TESTS=1 (`scripts/sandbox exec -- swift test --filter AppBehaviourTests`).
/// Elsewhere they are disabled, and scripts/test's plain `swift test` skips the suite.
enum Sandbox {
    static let isInside = ProcessInfo.processInfo.environment["RELAUNCH_BEHAVIOUR_TESTS"] == "1"
    static let reason: Comment = "drives the sandbox's apps; run inside it with RELAUNCH_BEHAVIOUR_TESTS=1"
}
