import Glibc
import RelaunchTestSupport
import Testing

/// `app list` and `--app` against registrations in a folder of the test's own ($RELAUNCH_APPS_D).
@Suite("relaunchctl and the registered apps")
struct AppListTests {
    /// A folder of registrations: checkin-demo, a second app and a bad file.
    static func folder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "relaunchctl-test")
        for (name, text) in [
            ("checkin-demo.conf", "[App]\nUnit=checkin-demo.service\nBusName=org.relaunch.CheckInDemo1\n"),
            ("notes-py.conf", "[App]\nUnit=notes-py.service\nPermissions=microphone\n"),
            ("broken.conf", "[App]\nColor=red\n"),
        ] {
            try folder.write(text, to: name)
        }
        return folder
    }

    @Test("app list --json lists every registered app with its unit and bus name; bad files are named on stderr")
    func listJSON() throws {
        let folder = try Self.folder()
        let environment = ["RELAUNCH_APPS_D=\(folder.path)", "DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/bus"]
        let result = try Executable.run(["app", "list", "--json"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let compact = result.stdout.filter { !$0.isWhitespace }
        #expect(compact.contains(#"{"activeState":"unknown","app":"checkin-demo","busName":"org.relaunch.CheckInDemo1","unit":"checkin-demo.service"}"#))
        #expect(compact.contains(#"{"activeState":"unknown","app":"notes-py","busName":null,"unit":"notes-py.service"}"#))
        #expect(result.stderr.contains("broken.conf:2: unknown key 'Color'"))
    }

    @Test("--app names an unregistered app: a usage error listing the registered ones")
    func unknownApp() throws {
        let folder = try Self.folder()
        let result = try Executable.run(["app", "screen", "--app", "maps"], environment: ["RELAUNCH_APPS_D=\(folder.path)"])
        #expect(result.status == 2)
        #expect(result.stderr == "relaunchctl: unknown app 'maps'; registered: checkin-demo, notes-py (see relaunchctl app list)\n")
    }

    @Test("an app without BusName= serves no App1: a usage error that says so")
    func noBusName() throws {
        let folder = try Self.folder()
        let result = try Executable.run(["app", "elements", "--app", "notes-py"], environment: ["RELAUNCH_APPS_D=\(folder.path)"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("notes-py has no BusName="))
    }
}
