// relaunch-app-unit: the app registrations as permissiond reads them, for polkit and the scripts.
//
//   relaunch-app-unit UNIT            exits 0 when UNIT runs a registered app, 1 otherwise, 2 on usage
//   relaunch-app-unit --polkit-rules [FILE]
//                                     writes polkit's rule for permissiond's kills (default FILE:
//                                     /etc/polkit-1/rules.d/50-relaunch-app-units.rules), listing the
//                                     units of the registered apps; exit 0, or 1 when it cannot write
//   relaunch-app-unit --list FOLDER...
//                                     one line per registration in FOLDER... (earlier folders first): APP,
//                                     UNIT and BUSNAME (or -), tab-separated; bad files on stderr, exit 1
//
// permissiond.service runs --polkit-rules as root before permissiond starts and before each reload,
// so polkit lets permissiond kill exactly the units of the apps permissiond serves, without starting
// a process per kill (RelaunchContract's PolkitKillRule; docs/DESIGN.md, "Who may kill an app").
// Either way it reads what permissiond reads, with the same parser (RelaunchContract): the apps.d folders (a file in an earlier folder hides one
// of the same name in a later one; a bad file counts for nothing) and the [app NAME] sections of
// /etc/relaunch/permissiond.conf (an app registered in apps.d keeps its registration's unit). A
// permissiond.conf that does not parse adds no app (permissiond refuses to start with it).
// No Foundation and a static Swift runtime: it starts fast wherever it is asked.
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
// The list names its folders (the scripts read a checkout's systemd/apps.d).
if arguments.first == "--list", arguments.count > 1 {
    let registry = AppRegistry.load(folders: Array(arguments.dropFirst()))
    for app in registry.ids {
        guard let registration = registry[app] else { continue }
        print(app, registration.unit, registration.busName ?? "-", separator: "\t")
    }
    for problem in registry.problems { printError("skipped \(problem)") }
    exit(registry.problems.isEmpty ? 0 : 1)
}
/// The registrations as permissiond reads them: apps.d and the [app NAME] sections of permissiond.conf;
/// nil (said on stderr) when permissiond.conf does not parse.
func registrations() -> PermissionConfiguration? {
    do {
        var configuration = try PermissionConfiguration.load()
        configuration.registry = AppRegistry.load()
        return configuration
    } catch {
        printError("\(error)")
        return nil
    }
}

if arguments.first == "--polkit-rules", arguments.count <= 2 {
    let file = RulesFile(path: arguments.count == 2 ? arguments[1] : PolkitKillRule.defaultPath)
    guard file.path.hasPrefix("/") else {
        printError("--polkit-rules needs an absolute path, not '\(file.path)'")
        exit(2)
    }
    // permissiond refuses to start with a permissiond.conf that does not parse, and a reload keeps the
    // configuration it had: so does the rule.
    guard let current = registrations() else {
        printError("\(file.path) left as it was, as permissiond keeps its configuration; fix the file, then reload")
        exit(0)
    }
    // A registration changed while this one read them is read again: the file ends as the folders are.
    var units = PolkitKillRule.units(of: current)
    for _ in 0..<5 {
        do {
            _ = try file.replace(with: PolkitKillRule.text(units: units))
        } catch {
            printError("\(error); permissiond's kills stay as the file said before (check that root may write its folder)")
            exit(1)
        }
        let again = registrations().map(PolkitKillRule.units(of:)) ?? units
        if again == units { exit(0) }
        units = again
    }
    printError("the registrations kept changing while \(file.path) was written; run it again")
    exit(1)
}
guard arguments.count == 1, let unit = arguments.first, !unit.isEmpty, !unit.hasPrefix("-") else {
    printError("usage: relaunch-app-unit UNIT | relaunch-app-unit --polkit-rules [FILE] | relaunch-app-unit --list FOLDER...")
    exit(2)
}
// A permissiond.conf that does not parse: its sections count for nothing here.
let configuration = registrations() ?? PermissionConfiguration(registry: AppRegistry.load())
exit(configuration.app(runningUnit: unit) == nil ? 1 : 0)
