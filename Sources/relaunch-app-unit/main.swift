// relaunch-app-unit: the app registrations as permissiond reads them, for polkit and the scripts.
//
//   relaunch-app-unit UNIT            exits 0 when UNIT runs a registered app, 1 otherwise, 2 on usage
//   relaunch-app-unit --list FOLDER...
//                                     one line per registration in FOLDER... (earlier folders first): APP,
//                                     UNIT and BUSNAME (or -), tab-separated; bad files on stderr, exit 1
//
// polkit's rule (50-relaunch.rules) asks it before letting permissiond send a signal to a unit, so
// permissiond may kill exactly the units of the apps registered now. It reads what permissiond reads,
// with the same parser (RelaunchContract): the apps.d folders (a file in an earlier folder hides one
// of the same name in a later one; a bad file counts for nothing) and the [app NAME] sections of
// /etc/relaunch/permissiond.conf (an app registered in apps.d keeps its registration's unit). A
// permissiond.conf that does not parse adds no app (permissiond refuses to start with it).
// No Foundation and a static Swift runtime: it runs on every kill, while the app waits.
import RelaunchContract

#if canImport(Glibc)
import Glibc
#endif

/// Writes `line` and a newline to standard error.
func printError(_ line: String) {
    let bytes = Array(("relaunch-app-unit: " + line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
// The list names its folders: polkit passes one argument, a unit, so that mode never answers it.
if arguments.first == "--list", arguments.count > 1 {
    let registry = AppRegistry.load(folders: Array(arguments.dropFirst()))
    for app in registry.ids {
        guard let registration = registry[app] else { continue }
        print(app, registration.unit, registration.busName ?? "-", separator: "\t")
    }
    for problem in registry.problems { printError("skipped \(problem)") }
    exit(registry.problems.isEmpty ? 0 : 1)
}
guard arguments.count == 1, let unit = arguments.first, !unit.isEmpty, !unit.hasPrefix("-") else {
    printError("usage: relaunch-app-unit UNIT | relaunch-app-unit --list FOLDER...")
    exit(2)
}
var configuration: PermissionConfiguration
do {
    configuration = try PermissionConfiguration.load()
} catch {
    printError("\(error); its [app NAME] sections count for nothing")
    configuration = .builtIn
}
configuration.registry = AppRegistry.load()
exit(configuration.app(runningUnit: unit) == nil ? 1 : 0)
