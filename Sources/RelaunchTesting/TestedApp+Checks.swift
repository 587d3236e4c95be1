internal import RelaunchBus
internal import RelaunchDriver
internal import Systemd

/// What the project's own behaviour checks need beyond a user's toggle test: systemd's view of the
/// unit, the apps' fault hooks and the manager's environment. `package`, not public: these reach
/// into the sandbox's systemd in ways a user's test should not.
extension TestedApp {
    /// A property of the unit's `org.freedesktop.systemd1.Service` (or `.Unit`) interface.
    package struct PropertyValue: Sendable {
        let value: BusValue
        /// A string property's text, or the number's decimal digits.
        package var text: String { value.stringValue ?? value.uint64Value.map(String.init) ?? "" }
        /// A numeric property, or nil.
        package var number: UInt64? { value.uint64Value }
    }

    /// The unit's property `name`, looked up on the Service interface, then the Unit interface.
    package func serviceProperty(_ name: String) async throws(RelaunchTestingError) -> PropertyValue {
        let path = SystemdManager.unitObjectPath(unit)
        for interface in ["org.freedesktop.systemd1.Service", "org.freedesktop.systemd1.Unit"] {
            let answer = await bus.attempt(
                destination: SystemdManager.destination, path: path, interface: "org.freedesktop.DBus.Properties",
                member: "Get", [.string(interface), .string(name)])
            if case .success(let values) = answer, let value = try? values.variant(at: 0) {
                return PropertyValue(value: value)
            }
        }
        throw RelaunchTestingError(.unexpectedReply, "\(unit) has no property \(name)")
    }

    /// Calls the app's `TestHook(name)` (root, `RELAUNCH_TEST_HOOKS=1`) and waits for its answer.
    package func testHook(_ name: String) async throws(RelaunchTestingError) {
        try await link.app1(.testHook, [.string(name)])
    }

    /// Calls `TestHook(name)` for a hook that stops the app from answering (`hang`), and waits until
    /// systemd has relaunched it instead of for the answer.
    /// - Returns: The relaunch and the invocation the hook ran in.
    package func afterTestHook(_ name: String) async throws(RelaunchTestingError) -> (relaunch: Relaunch, oldInvocation: String) {
        let before = try await watch.snapshot()
        guard let busName else {
            throw RelaunchTestingError(.unknownApp, "\(id) serves no org.relaunch.App1")
        }
        let bus = self.bus
        // The call never answers; its task ends when the connection's loop reports the peer gone.
        Task {
            await bus.attempt(destination: busName, path: BusInterface.app1ObjectPath, interface: BusInterface.app1.name,
                              member: App1Method.testHook.member, [.string(name)])
        }
        let relaunch = try await link.waitUntilLaunched(otherThan: before.invocationID, because: "the \(name) hook")
        return (relaunch, before.invocationID)
    }

    /// `systemctl set-environment ASSIGNMENT`: units started from now on see it.
    package func setManagerEnvironment(_ assignment: String) async throws(RelaunchTestingError) {
        try await link.systemd("SetEnvironment", [.array(elementSignature: "s", [.string(assignment)])])
    }

    /// `systemctl unset-environment NAME`.
    package func unsetManagerEnvironment(_ name: String) async throws(RelaunchTestingError) {
        try await link.systemd("UnsetEnvironment", [.array(elementSignature: "s", [.string(name)])])
    }
}
