@testable import Notes
import RelaunchApp
import RelaunchContract
import RelaunchTestSupport
import RestorationKit

extension FakeHost<NotesApp> {
    /// A new instance, as systemd's relaunch makes it: notes loaded, then launched from the archive.
    func relaunch(build: String = "1", photos: PermissionState = .denied) throws -> NotesApp {
        try relaunch(NotesApp(buildNumber: build, photos: photos, wallClock: { 1_000 }))
    }
}
