import Countries
import RelaunchContract
import RelaunchHost

#if canImport(Glibc)
import Glibc
#endif

/// countries-demo: seed 004's countries app (the Countries library), supervised by systemd
/// (countries-demo.service, Type=notify) through the Relaunch host library.
///
/// `$COUNTRIES_DEMO_EXCLUDE` (country names separated by commas) deletes rows from the data it ships
/// with, as a data update between two launches would.
@main
enum CountriesDemo {
    static func main() {
        let excluded = getenv("COUNTRIES_DEMO_EXCLUDE").map { String(cString: $0) } ?? ""
        RelaunchHost.run(
            identity: AppIdentity(
                program: "countries-demo", summary: "The Relaunch countries demo app (seed 004); COUNTRIES_DEMO_EXCLUDE=NAME,... deletes rows from its data.",
                build: "1",
                buildVariable: "COUNTRIES_DEMO_BUILD", defaultAppID: "countries-demo",
                defaultBusName: "org.relaunch.CountriesDemo1")
        ) { build, permissions in
            CountriesApp(
                buildNumber: build, location: permissions[.location] ?? .notDetermined,
                countries: Country.excluding(excluded, from: Country.catalog))
        }
    }
}
