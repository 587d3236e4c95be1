public import RelaunchContract
public import RestorationKit

/// Something the app asks its host (the executable) to do; the app itself does no I/O.
public enum AppEffect: Equatable, Sendable {
    /// The lifecycle changed; log it.
    case lifecycleChanged(Application.LifecycleState)
    /// The app went to the background: call `preserve()` now and store the bytes.
    case preserveState
    /// The user asked for the app's page in Settings, for this permission.
    case openSettings(Permission)
    /// Delete every stored copy of the saved state and log the discard with this reason.
    case discardSavedState(DiscardReason)
    /// The process should exit.
    case terminate
}

/// How the last instance ended, when it was killed for a permission change (shown in the state JSON).
public struct LastExit: Equatable, Sendable {
    /// The permission whose change killed it.
    public var permission: Permission
    /// The state before the change.
    public var old: PermissionState
    /// The state after the change.
    public var new: PermissionState

    /// A note that the last instance was killed because `permission` went from `old` to `new`.
    public init(permission: Permission, old: PermissionState, new: PermissionState) {
        self.permission = permission
        self.old = old
        self.new = new
    }
}

/// What an app's `preserve()` produced.
public struct Preservation: Equatable, Sendable {
    /// The archive's bytes, to write with `ArchiveFile.write` (and keep in the fd store).
    public var bytes: [UInt8]
    /// The archive's generation.
    public var generation: UInt64
    /// How long preserving and encoding took.
    public var duration: Duration
    /// A warning when the archive is over the soft size limit.
    public var warning: String?

    /// The duration in whole microseconds (DURATION_USEC).
    public var durationMicroseconds: Int64 { duration.microseconds }

    /// Creates a preservation's result.
    public init(bytes: [UInt8], generation: UInt64, duration: Duration, warning: String?) {
        self.bytes = bytes
        self.generation = generation
        self.duration = duration
        self.warning = warning
    }
}

extension Duration {
    /// Whole microseconds, as the journal's DURATION_USEC fields want them.
    public var microseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
