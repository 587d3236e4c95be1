#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock instants of one launch, for `tests/sandbox/measure-relaunch`: when `main()` reached the
/// host, when the restore finished, and when READY=1 was sent. The journal's own timestamps are wall
/// clock too (`_SOURCE_REALTIME_TIMESTAMP`), so the benchmark lines them up with systemd's entries.
struct LaunchTimings: Sendable {
    /// Entry into ``RelaunchHost/run(identity:makeApp:)``, the first thing the app's `main()` does.
    var main: UInt64
    var restored: UInt64 = 0
    var ready: UInt64 = 0

    /// Microseconds since the epoch (`CLOCK_REALTIME`, the journal's clock).
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return microseconds(time)
    }

    /// `time` in whole microseconds.
    static func microseconds(_ time: timespec) -> UInt64 {
        UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec) / 1_000
    }

    /// The journal fields of the "launch timing" entry, logged after READY=1.
    var fields: [String: String] {
        ["LAUNCH_MAIN_USEC": "\(main)", "LAUNCH_RESTORED_USEC": "\(restored)", "LAUNCH_READY_USEC": "\(ready)"]
    }
}
