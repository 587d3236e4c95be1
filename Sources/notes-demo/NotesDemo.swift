import Notes
import RelaunchContract
import RelaunchHost

/// notes-demo: the scene-based notes app (the Notes library), supervised by systemd
/// (notes-demo.service, Type=notify) through the Relaunch host library. Each window is a scene
/// restored from the activity it saved; App1's scene methods drive one window at a time.
@main
enum NotesDemo {
    static func main() {
        RelaunchHost.run(
            identity: AppIdentity(
                program: "notes-demo", summary: "The Relaunch notes demo app: notes in several windows, each a scene restored from its saved activity.",
                build: "1",
                buildVariable: "NOTES_DEMO_BUILD", defaultAppID: "notes-demo",
                defaultBusName: "org.relaunch.NotesDemo1")
        ) { build, permissions in
            NotesApp(buildNumber: build, photos: permissions[.photos] ?? .notDetermined)
        }
    }
}
