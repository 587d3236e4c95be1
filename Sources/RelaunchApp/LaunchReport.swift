public import RestorationKit

/// What a launch did, for the journal and the state JSON.
public struct LaunchReport: Equatable, Sendable {
    /// How the launch went, as the state JSON's `launch.outcome` says it.
    public enum Outcome: String, Sendable, CaseIterable {
        /// No saved state was found.
        case fresh
        /// Saved state was restored: controllers into the window, or a scene's saved activity.
        case restored
        /// Saved state was found but thrown away (see `discardReason`); the app launched fresh.
        case discarded
    }

    /// One restored controller.
    public struct RestoredPath: Equatable, Sendable {
        /// Its restoration path joined with `/` (RESTORATION_PATH).
        public var path: String
        /// How it was found (RESTORED_VIA).
        public var via: RestorationReport.Via

        /// A restored controller at `path` found `via`.
        public init(path: String, via: RestorationReport.Via) {
            self.path = path
            self.via = via
        }
    }

    /// How the launch went.
    public var outcome: Outcome
    /// Why saved state was discarded, when it was (REASON).
    public var discardReason: DiscardReason?
    /// Every restored controller, parents first.
    public var restored: [RestoredPath]
    /// The presented controller's path after launch, if any (PRESENTED_PATH).
    public var presentedPath: String?
    /// How long the launch took, planning and restoring included.
    public var duration: Duration
    /// Where the restored archive came from (`"file"`, `"fdstore"`), if one was restored.
    public var source: String?
    /// What reading each candidate found.
    public var verdicts: [CandidateVerdict]
    /// What the caller must still do: delete discarded copies (`discardSavedState`) and log it.
    public var actions: [LaunchAction]
    /// Things worth logging: size warnings, skipped paths, restoration notes, mark I/O failures.
    public var warnings: [String]
    /// Why a launch that had saved state is nonetheless `fresh` (it restored nothing), else nil.
    public var note: String? = nil
    /// How each scene session of a scene-based app came back, in the order its windows were opened
    /// (empty for an app without scenes).
    public var scenes: [SceneRestoration] = []

    /// Creates a report.
    public init(
        outcome: Outcome, discardReason: DiscardReason?, restored: [RestoredPath], presentedPath: String?,
        duration: Duration, source: String?, verdicts: [CandidateVerdict], actions: [LaunchAction],
        warnings: [String], note: String? = nil, scenes: [SceneRestoration] = []
    ) {
        self.outcome = outcome
        self.discardReason = discardReason
        self.restored = restored
        self.presentedPath = presentedPath
        self.duration = duration
        self.source = source
        self.verdicts = verdicts
        self.actions = actions
        self.warnings = warnings
        self.note = note
        self.scenes = scenes
    }

    /// How many controllers were restored (RESTORED_COUNT).
    public var restoredCount: Int { restored.count }
    /// The duration in whole microseconds (DURATION_USEC).
    public var durationMicroseconds: Int64 { duration.microseconds }
}
