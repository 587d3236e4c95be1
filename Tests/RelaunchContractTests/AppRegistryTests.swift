import RelaunchContract
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("apps.d registrations")
struct AppRegistryTests {
    @Test("a full registration parses, with comments of both kinds")
    func full() throws {
        let text = """
            # checkin-demo
            ; another comment
            [App]
            Unit=checkin-demo.service
            BusName = org.relaunch.CheckInDemo1
            Permissions=camera	photos camera
            KillPolicy=android
            """
        let registration = try AppRegistry.parse(text, app: "checkin-demo", file: "f.conf")
        #expect(registration == AppRegistration(
            app: "checkin-demo", unit: "checkin-demo.service", busName: "org.relaunch.CheckInDemo1",
            permissions: [.camera, .photos], killPolicy: .android, file: "f.conf"))
    }

    @Test("defaults: every permission, no bus name, the daemon's policy")
    func defaults() throws {
        let registration = try AppRegistry.parse("[App]\nUnit=my-app.service\n", app: "my-app", file: "f")
        #expect(registration.permissions == Permission.allCases)
        #expect(registration.busName == nil && registration.killPolicy == nil)
    }

    @Test("each fault names its line and says what is accepted", arguments: [
        ("[App]\nUnit=x.service\nColor=red\n", 3, "unknown key 'Color'; accepted: Unit, BusName, Permissions, KillPolicy"),
        ("Unit=x.service\n", 1, "settings must follow the [App] section header"),
        ("[Service]\n", 1, "unknown section '[Service]'; accepted: [App]"),
        ("[App]\nUnit=not a unit\n", 2, "Unit='not a unit' is not a unit name such as myapp.service"),
        ("[App]\nUnit=x.service\nPermissions=camera torch\n", 3, "unknown permission 'torch'"),
        ("[App]\nUnit=x.service\nKillPolicy=sometimes\n", 3, "unknown KillPolicy='sometimes'; accepted: ios, android"),
        ("[App]\nUnit=x.service\nBusName=nodots\n", 3, "BusName='nodots' is not a well-known bus name"),
        ("[App]\njust words\n", 2, "expected Key=Value, found 'just words'"),
    ])
    func faults(text: String, line: Int, fault: String) {
        #expect {
            _ = try AppRegistry.parse(text, app: "x", file: "x.conf")
        } throws: { error in
            guard let problem = error as? AppRegistrationProblem else { return false }
            return problem.line == line && problem.fault.hasPrefix(fault) && problem.file == "x.conf"
        }
    }

    @Test("no Unit= and a bad file name are faults of the whole file")
    func wholeFile() {
        #expect(throws: AppRegistrationProblem(file: "x.conf", line: nil, fault: "no Unit= (the systemd unit that runs the app)")) {
            _ = try AppRegistry.parse("[App]\nBusName=org.example.X1\n", app: "x", file: "x.conf")
        }
        #expect { _ = try AppRegistry.parse("[App]\nUnit=x.service\n", app: "Bad_Name", file: "Bad_Name.conf") } throws: {
            ($0 as? AppRegistrationProblem)?.fault.contains("is not an app id") == true
        }
    }

    @Test("folders: an earlier folder's file wins, bad files are skipped and listed, other names ignored")
    func folders() throws {
        let root = try TestFolder()
        let etc = try root.folder("etc"), run = try root.folder("run"), lib = try root.folder("lib")
        try root.write("\(etc)/a.conf", "[App]\nUnit=a-from-etc.service\n")
        try root.write("\(lib)/a.conf", "[App]\nUnit=a-from-lib.service\n")
        try root.write("\(run)/b.conf", "[App]\nUnit=b.service\nOops\n")
        try root.write("\(lib)/c.conf", "[App]\nUnit=c.service\n")
        try root.write("\(lib)/README", "not a registration")
        let registry = AppRegistry.load(folders: [etc, run, lib, "\(root.path)/missing"])
        #expect(registry.ids == ["a", "c"])
        #expect(registry["a"]?.unit == "a-from-etc.service")
        #expect(registry.problems == [AppRegistrationProblem(file: "\(run)/b.conf", line: 3, fault: "expected Key=Value, found 'Oops'")])
    }
}

/// A scratch folder removed at the end of the test.
final class TestFolder {
    let path: String

    init() throws {
        var template = Array("/var/tmp/relaunch-apps-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw AppRegistrationProblem(file: "mkdtemp", line: nil, fault: "\(errno)") }
        path = String(cString: made)
    }

    func folder(_ name: String) throws -> String {
        let folder = path + "/" + name
        mkdir(folder, 0o755)
        return folder
    }

    func write(_ file: String, _ text: String) throws {
        guard let handle = fopen(file, "w") else { throw AppRegistrationProblem(file: file, line: nil, fault: "\(errno)") }
        fputs(text, handle)
        fclose(handle)
    }

    deinit {
        _ = system("rm -rf '\(path)'")
    }
}
