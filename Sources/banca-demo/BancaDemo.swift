import Banca
import RelaunchContract
import RelaunchHost

/// banca-demo: seed 000's currency converter (the Banca library), supervised by systemd
/// (banca-demo.service, Type=notify) through the Relaunch host library.
@main
enum BancaDemo {
    static func main() {
        RelaunchHost.run(
            identity: AppIdentity(
                program: "banca-demo", summary: "The Relaunch currency converter demo app (seed 000).", build: "1",
                buildVariable: "BANCA_DEMO_BUILD", defaultAppID: "banca-demo",
                defaultBusName: "org.relaunch.BancaDemo1")
        ) { build, permissions in
            BancaApp(buildNumber: build, camera: permissions[.camera] ?? .notDetermined)
        }
    }
}
