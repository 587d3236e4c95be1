import RelaunchContract
import RelaunchctlCore
import Testing

@Suite("Which app a command drives")
struct AppTargetTests {
    static let checkIn = AppRegistration(app: "checkin-demo", unit: "checkin-demo.service", busName: "org.relaunch.CheckInDemo1")
    static let banca = AppRegistration(app: "banca-demo", unit: "banca-demo.service", busName: "org.relaunch.BancaDemo1")
    static let silent = AppRegistration(app: "notes-py", unit: "notes-py.service")

    @Test("Without --app: checkin-demo when it is registered, whatever else is")
    func checkInByDefault() throws {
        let target = try AppTarget.resolve(nil, registry: AppRegistry([Self.banca, Self.checkIn]))
        #expect([target.app, target.unit, target.busName] == ["checkin-demo", "checkin-demo.service", "org.relaunch.CheckInDemo1"])
    }

    @Test("Without --app and without checkin-demo: the only app, or a usage error naming them all")
    func onlyAppOrAsk() throws {
        #expect(try AppTarget.resolve(nil, registry: AppRegistry([Self.banca])).app == "banca-demo")
        let several = #expect(throws: CLIError.self) {
            try AppTarget.resolve(nil, registry: AppRegistry([Self.banca, Self.silent]))
        }
        #expect(several?.code == .usage)
        #expect(several?.message == "name the app with --app APP; registered: banca-demo, notes-py")
    }

    @Test("--app names a registered app that serves App1, or the error says what is wrong")
    func named() throws {
        let registry = AppRegistry([Self.checkIn, Self.banca, Self.silent])
        #expect(try AppTarget.resolve("banca-demo", registry: registry).busName == "org.relaunch.BancaDemo1")
        let unknown = #expect(throws: CLIError.self) { try AppTarget.resolve("nope", registry: registry) }
        #expect(unknown?.code == .usage)
        #expect(unknown?.message.contains("registered: banca-demo, checkin-demo, notes-py") == true)
        let silent = #expect(throws: CLIError.self) { try AppTarget.resolve("notes-py", registry: registry) }
        #expect(silent?.message.contains("serves no org.relaunch.App1") == true)
    }
}
