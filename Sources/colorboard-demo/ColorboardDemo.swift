import Colorboard
import RelaunchContract
import RelaunchHost

/// colorboard-demo: seed 001's storyboard app (the Colorboard library), supervised by systemd
/// (colorboard-demo.service, Type=notify) through the Relaunch host library.
@main
enum ColorboardDemo {
    static func main() {
        RelaunchHost.run(
            identity: AppIdentity(
                program: "colorboard-demo", summary: "The Relaunch Colorboard demo app (seed 001).", build: "1",
                buildVariable: "COLORBOARD_DEMO_BUILD", defaultAppID: "colorboard-demo",
                defaultBusName: "org.relaunch.ColorboardDemo1")
        ) { build, permissions in
            ColorboardApp(buildNumber: build, photos: permissions[.photos] ?? .notDetermined)
        }
    }
}
