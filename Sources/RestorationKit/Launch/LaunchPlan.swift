/// One copy of saved state the launch may restore from, as the executable found it.
public struct ArchiveCandidate: Equatable, Sendable {
    /// Where it came from, for logs (`"file"`, `"fdstore"`).
    public var source: String
    /// Its bytes, unchecked.
    public var bytes: [UInt8]

    /// A candidate read from `source`.
    public init(source: String, bytes: [UInt8]) {
        self.source = source
        self.bytes = bytes
    }
}

/// What reading one candidate found.
public struct CandidateVerdict: Equatable, Sendable {
    /// The candidate's source.
    public var source: String
    /// Its size in bytes.
    public var byteCount: Int
    /// Its header, when the archive could be read (also for a build mismatch).
    public var header: ArchiveHeader?
    /// Why it cannot be restored, or nil when it can.
    public var error: ArchiveError?
    /// A size warning, when it is over the soft limit.
    public var warning: String?

    /// Whether it can be restored.
    public var isValid: Bool { error == nil }
}

/// Something the caller must do for the launch to be safe; the planner itself does no I/O.
public enum LaunchAction: Equatable, Sendable {
    /// Delete every stored copy of the saved state (file and fd store) and log the discard with this reason.
    case discardSavedState(DiscardReason)
    /// Durably write the restoring mark, before restoring.
    case setRestoringMark
    /// Remove the restoring mark.
    case clearRestoringMark
}

/// The planner's answer for a launch.
public struct LaunchPlan: Equatable, Sendable {
    /// What to launch with.
    public enum Decision: Equatable, Sendable {
        /// No saved state: launch fresh.
        case fresh
        /// Restore this archive (the newest valid candidate).
        case restore(RestorationArchive, source: String)
        /// Saved state was discarded for this reason: launch fresh.
        case discard(DiscardReason)
    }

    /// What to launch with.
    public var decision: Decision
    /// What to do first, in order (for `.restore`, set the mark before restoring).
    public var actions: [LaunchAction]
    /// What reading each candidate found, in the order given.
    public var verdicts: [CandidateVerdict]
    /// The generation for the next preservation: above every generation seen.
    public var nextGeneration: UInt64
    /// Warnings worth logging (a candidate over the soft size limit).
    public var warnings: [String]

    /// The archive to restore, if any.
    public var archive: RestorationArchive? {
        if case .restore(let archive, _) = decision { return archive }
        return nil
    }

    /// The discard reason, if saved state was discarded.
    public var discardReason: DiscardReason? {
        if case .discard(let reason) = decision { return reason }
        return nil
    }
}
