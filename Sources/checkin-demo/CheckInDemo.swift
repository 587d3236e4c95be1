import CheckIn
import RelaunchContract
import RelaunchHost

/// checkin-demo: seed 002's check-in app (the CheckIn library), supervised by systemd
/// (checkin-demo.service, Type=notify) through the Relaunch host library.
@main
enum CheckInDemo {
    static func main() {
        RelaunchHost.run(
            identity: AppIdentity(
                program: "checkin-demo", summary: "The Relaunch check-in demo app (seed 002).", build: "1",
                buildVariable: "CHECKIN_DEMO_BUILD", defaultAppID: "checkin-demo",
                defaultBusName: "org.relaunch.CheckInDemo1")
        ) { build, permissions in
            CheckInApp(buildNumber: build, camera: permissions[.camera] ?? .notDetermined)
        }
    }
}
