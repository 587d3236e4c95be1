import Foundation
@testable import RelaunchHost
import RelaunchTestSupport
import Testing

/// What a hosted app makes of its command line and environment, and how it ends on bad ones.
@Suite("A hosted app's command line and environment")
struct HostConfigurationTests {
    static let identity = AppIdentity(
        program: "config-test", summary: "A configuration test app.", build: "7", buildVariable: "CONFIG_TEST_BUILD",
        defaultAppID: "config-test", defaultBusName: "org.relaunch.ConfigTest1")

    /// Loads with `arguments` after the program name and `variables` as the whole environment.
    static func load(_ arguments: [String], _ variables: [String: String] = [:]) throws(HostError) -> HostConfiguration? {
        try HostConfiguration.load(arguments: ["config-test"] + arguments, identity: identity) { variables[$0] }
    }

    /// The error loading with `arguments` ends the app with, nil when it loads.
    static func failure(_ arguments: [String]) -> HostError? {
        do {
            _ = try load(arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test("an unknown argument or a --state-directory without a value is a usage error: exit status 2, saying what to try")
    func usageErrors() {
        for arguments in [["--frobnicate"], ["--state-directory"], ["--state-directory", ""]] {
            let error = Self.failure(arguments)
            #expect(error?.exitStatus == 2, "\(arguments)")
            #expect(error?.message.hasSuffix("try --help") == true, "\(error?.message ?? "no error")")
        }
    }

    @Test("a state directory that cannot be created ends the app with exit status 1, naming the directory")
    func uncreatableStateDirectory() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let missing = directory + "/no-parent/state"
            let error = Self.failure(["--state-directory", missing])
            #expect(error?.exitStatus == 1)
            #expect(error?.message.contains("could not create the state directory \(missing)") == true, "\(error?.message ?? "no error")")
        }
    }

    @Test("the state directory is created when missing (mode 0700) and taken as it is when it exists")
    func stateDirectoryCreated() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let state = directory + "/state"
            #expect(try Self.load(["--state-directory", state])?.stateDirectory == state)
            let attributes = try FileManager.default.attributesOfItem(atPath: state)
            #expect((attributes[.posixPermissions] as? Int) == 0o700)
            #expect(try Self.load(["--state-directory", state])?.stateDirectory == state, "an existing directory")
            // systemd's StateDirectory= list: the first directory is the app's.
            #expect(try Self.load([], ["STATE_DIRECTORY": "\(state):/elsewhere"])?.stateDirectory == state)
        }
    }

    @Test("test hooks are on only with RELAUNCH_TEST_HOOKS=1")
    func testHooks() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let arguments = ["--state-directory", directory]
            #expect(try Self.load(arguments, ["RELAUNCH_TEST_HOOKS": "1"])?.testHooksEnabled == true)
            #expect(try Self.load(arguments)?.testHooksEnabled == false)
            #expect(try Self.load(arguments, ["RELAUNCH_TEST_HOOKS": "yes"])?.testHooksEnabled == false)
        }
    }

    @Test("the build, app id, bus name and invocation id come from the environment, else the identity's defaults")
    func identityFromEnvironment() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let arguments = ["--state-directory", directory]
            let plain = try #require(try Self.load(arguments))
            #expect([plain.buildNumber, plain.appID, plain.busName] == ["7", "config-test", "org.relaunch.ConfigTest1"])
            #expect(plain.invocationID == nil)
            let set = try #require(try Self.load(arguments, [
                "CONFIG_TEST_BUILD": "8", "RELAUNCH_APP_ID": "other", "RELAUNCH_BUS_NAME": "org.relaunch.Other1",
                "INVOCATION_ID": "abc123",
            ]))
            #expect([set.buildNumber, set.appID, set.busName, set.invocationID] == ["8", "other", "org.relaunch.Other1", "abc123"])
            #expect(try Self.load(arguments, ["CONFIG_TEST_BUILD": "8", "RELAUNCH_BUILD": "9"])?.buildNumber == "9")
        }
    }
}
