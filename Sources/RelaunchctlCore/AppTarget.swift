package import RelaunchContract

#if canImport(Glibc)
import Glibc
#endif

/// The registered app a command drives: its id, its unit and where it serves org.relaunch.App1.
package struct AppTarget: Sendable, Hashable {
    package var app: String
    package var unit: String
    package var busName: String

    /// The registrations: from `$RELAUNCH_APPS_D` (folders separated by `:`, earliest wins) when
    /// set, else from the standard apps.d folders.
    package static func registry() -> AppRegistry {
        if let raw = getenv("RELAUNCH_APPS_D").map({ String(cString: $0) }), !raw.isEmpty {
            return AppRegistry.load(folders: raw.split(separator: ":").map(String.init))
        }
        return AppRegistry.load()
    }

    /// The app named by `--app`, or the default: checkin-demo when it is registered, else the only
    /// registered app.
    /// - Throws: a usage error listing the registered apps when none or several fit, or when the
    ///   app serves no App1 (its registration has no BusName).
    package static func resolve(_ requested: String?, registry: AppRegistry = AppTarget.registry()) throws(CLIError) -> AppTarget {
        let registered = registry.ids.isEmpty ? "none" : registry.ids.joined(separator: ", ")
        let chosen: String
        if let requested {
            guard registry[requested] != nil else {
                throw .usage("unknown app \(Echo.quoted(requested)); registered: \(registered) (see relaunchctl app list)")
            }
            chosen = requested
        } else if registry["checkin-demo"] != nil {
            chosen = "checkin-demo"
        } else if registry.ids.count == 1 {
            chosen = registry.ids[0]
        } else {
            throw .usage("name the app with --app APP; registered: \(registered)")
        }
        let registration = registry[chosen]!
        guard let busName = registration.busName else {
            throw .usage(
                "\(chosen) has no BusName= in \(registration.file), so it serves no org.relaunch.App1 to drive")
        }
        return AppTarget(app: chosen, unit: registration.unit, busName: busName)
    }
}
