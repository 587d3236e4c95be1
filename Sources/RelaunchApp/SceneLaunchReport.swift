public import RestorationKit

extension LaunchReport {
    /// How one scene session's window came back at a launch (one journal entry each,
    /// `MessageID.sceneSessionRestored`, and the state JSON's `launch.scenes`).
    public struct SceneRestoration: Equatable, Sendable {
        /// What became of the session's saved state (SCENE_OUTCOME).
        public enum Outcome: String, Sendable, CaseIterable {
            /// Its saved activity was handed back to its scene.
            case restored
            /// It had a saved record that was thrown away (see `discardReason`); the window came back
            /// without its activity.
            case discarded
            /// It had no saved activity to restore: a new window, or one whose scene saved none.
            case fresh
        }

        /// The session's persistent identifier (SCENE_SESSION).
        public var session: String
        /// Its role's raw value (SCENE_ROLE).
        public var role: String
        /// What became of its saved state.
        public var outcome: Outcome
        /// The restored activity's type, when there was one (ACTIVITY_TYPE).
        public var activityType: String?
        /// The restored activity's title, when it had one (ACTIVITY_TITLE).
        public var title: String?
        /// Why its saved state was discarded (REASON): its own record's (`corrupt`,
        /// `unsupported-format`), or the whole archive's when the app delegate declined it.
        public var discardReason: DiscardReason?
        /// What was wrong with a discarded record, for logs.
        public var detail: String?

        /// A session's restoration of the given parts.
        public init(
            session: String, role: String, outcome: Outcome, activityType: String? = nil, title: String? = nil,
            discardReason: DiscardReason? = nil, detail: String? = nil
        ) {
            self.session = session
            self.role = role
            self.outcome = outcome
            self.activityType = activityType
            self.title = title
            self.discardReason = discardReason
            self.detail = detail
        }
    }

    /// Whether any scene's saved activity was restored.
    public var restoredScenes: Bool { scenes.contains { $0.outcome == .restored } }
}

extension RestorationSession {
    /// How each open session came back at the launch that just ran, in the order the windows were opened.
    ///
    /// - Parameters:
    ///   - archive: The archive the launch was handed, nil for a fresh launch.
    ///   - declined: Why the app delegate declined `archive`, when it did: every session it held is
    ///     then discarded with that reason.
    static func sceneRestorations(
        of application: Application, archive: RestorationArchive?, declined: DiscardReason?
    ) -> [LaunchReport.SceneRestoration] {
        let saved = Dictionary(
            (archive?.sceneSessions ?? []).map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        return application.openSessions.map { session in
            var entry = LaunchReport.SceneRestoration(
                session: session.persistentIdentifier, role: session.role.rawValue, outcome: .fresh)
            guard let record = saved[session.persistentIdentifier] else { return entry }
            if let declined, record.activity != nil || record.discardReason != nil {
                entry.outcome = .discarded
                entry.discardReason = declined
                entry.detail = "the app delegate declined the saved state"
            } else if let reason = record.discardReason {
                entry.outcome = .discarded
                entry.discardReason = reason
                entry.detail = record.discardDetail
            } else if let activity = record.activity {
                entry.outcome = .restored
                entry.activityType = activity.activityType
                entry.title = activity.title
            }
            return entry
        }
    }
}
