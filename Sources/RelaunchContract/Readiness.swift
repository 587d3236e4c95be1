/// When a registered app counts as ready: the rule `relaunchctl app wait-ready` and RelaunchDriver's
/// waits for a launch (TestedApp, `permission set --wait`) share.
///
/// The app answers `Ready()` with whether it finished launching (restored) and its invocation id.
/// An answer counts only from the unit's current instance: during a relaunch the dying instance may
/// still answer, and it finished launching long ago.
package enum Readiness {
    /// The invocation id of the unit's instance that should answer `Ready()`: the unit is active
    /// and has one (nil otherwise).
    package static func runningInstance(activeState: String, invocationID: String) -> String? {
        activeState == "active" && !invocationID.isEmpty ? invocationID : nil
    }

    /// What an app's `Ready()` answer says when `current` is the unit's running instance: done (with
    /// the invocation id) only when the app finished launching and `invocation`, the instance that
    /// answered, is `current`.
    package static func judge(finished: Bool, answeredBy invocation: String, current: String) -> Probe<String> {
        guard finished else { return .notYet("still launching") }
        return invocation == current ? .done(invocation) : .notYet("the answering instance is not the unit's current one")
    }
}
