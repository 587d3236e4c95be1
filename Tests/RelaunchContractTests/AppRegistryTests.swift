import RelaunchContract
import RelaunchTestSupport
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
        ("[App]\nUnit=x.service\nColor=red\n", 3, "unknown key 'Color'; accepted: Unit, BusName, Permissions, Profile, KillPolicy"),
        ("Unit=x.service\n", 1, "settings must follow the [App] section header"),
        ("[Service]\n", 1, "unknown section '[Service]'; accepted: [App]"),
        ("[App]\nUnit=not a unit\n", 2, "Unit='not a unit' is not a unit name such as myapp.service"),
        ("[App]\nUnit=x.service\nPermissions=camera torch\n", 3, "unknown permission 'torch'"),
        ("[App]\nUnit=x.service\nKillPolicy=sometimes\n", 3, "unknown KillPolicy='sometimes'; accepted: ios, android"),
        ("[App]\nUnit=x.service\nBusName=nodots\n", 3, "BusName='nodots' is not a well-known bus name"),
        ("[App]\nUnit=x.service\nBusName=org..example\n", 3, "BusName='org..example' is not a well-known bus name"),
        ("[App]\nUnit=x.service\nBusName=org.1example\n", 3, "BusName='org.1example' is not a well-known bus name"),
        ("[App]\nUnit=x.service\nBusName=org.exämple\n", 3, "BusName='org.exämple' is not a well-known bus name"),
        ("[App]\nUnit=x.service\nBusName=org.ex+ample\n", 3, "BusName='org.ex+ample' is not a well-known bus name"),
        ("[App]\njust words\n", 2, "expected Key=Value, found 'just words'"),
        // Blank lines and comments count: the number is the line an editor shows.
        ("[App]\n\n# the unit\nUnit=x.service\n\n\nColor=red\n", 7, "unknown key 'Color'"),
    ])
    func faults(text: String, line: Int, fault: String) {
        #expect {
            _ = try AppRegistry.parse(text, app: "x", file: "x.conf")
        } throws: { error in
            guard let problem = error as? AppRegistrationProblem else { return false }
            return problem.line == line && problem.fault.hasPrefix(fault) && problem.file == "x.conf"
        }
    }

    @Test("a bus name's elements may hold letters, digits (not first), '_' and '-'")
    func busNames() throws {
        let registration = try AppRegistry.parse("[App]\nUnit=x.service\nBusName=org.my-app_2.Notes1\n", app: "x", file: "x.conf")
        #expect(registration.busName == "org.my-app_2.Notes1")
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
        let root = try TemporaryDirectory(prefix: "relaunch-apps")
        let etc = try root.makeFolder("etc"), run = try root.makeFolder("run"), lib = try root.makeFolder("lib")
        try root.write("[App]\nUnit=a-from-etc.service\n", to: "etc/a.conf")
        try root.write("[App]\nUnit=a-from-lib.service\n", to: "lib/a.conf")
        try root.write("[App]\nUnit=b.service\nOops\n", to: "run/b.conf")
        try root.write("[App]\nUnit=c.service\n", to: "lib/c.conf")
        try root.write("not a registration", to: "lib/README")
        let registry = AppRegistry.load(folders: [etc, run, lib, "\(root.path)/missing"])
        #expect(registry.ids == ["a", "c"])
        #expect(registry["a"]?.unit == "a-from-etc.service")
        #expect(registry.problems == [AppRegistrationProblem(file: "\(run)/b.conf", line: 3, fault: "expected Key=Value, found 'Oops'")])
    }
}

extension AppRegistryTests {
    @Test("a file of exactly the largest size is read whole; one byte more is refused")
    func largestFile() throws {
        let root = try TemporaryDirectory(prefix: "relaunch-apps")
        let folder = try root.makeFolder("apps")
        let head = "[App]\nUnit=x.service\n#"
        let tail = "\nBusName=org.example.Last1"
        let padding = String(repeating: "-", count: AppRegistry.maximumFileSize - head.utf8.count - tail.utf8.count)
        try root.write(head + padding + tail, to: "apps/x.conf")
        try root.write(head + padding + "-" + tail, to: "apps/y.conf")
        let registry = AppRegistry.load(folders: [folder])
        #expect(registry["x"]?.busName == "org.example.Last1", "the last byte of a file of the largest size was lost")
        #expect(registry.problems.map(\.fault) == ["larger than 64 KiB"])
    }

    @Test("a file with CRLF line ends reads as one with LF")
    func crlf() throws {
        let registration = try AppRegistry.parse("[App]\r\nUnit=x.service\r\n\tPermissions=camera\t\r\n", app: "x", file: "x.conf")
        #expect(registration.unit == "x.service" && registration.permissions == [.camera])
    }

    @Test("only .conf files are registrations: others, and . and .., are not read")
    func onlyConfFiles() throws {
        let root = try TemporaryDirectory(prefix: "relaunch-apps")
        let folder = try root.makeFolder("apps")
        try root.write("[App]\nUnit=a.service\n", to: "apps/a.conf")
        try root.write("broken", to: "apps/b.conf.bak")
        try root.write("broken", to: "apps/conf")
        let registry = AppRegistry.load(folders: [folder])
        #expect(registry.ids == ["a"] && registry.problems.isEmpty)
    }
}
