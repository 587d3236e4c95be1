import Foundation
import RelaunchContract
import RelaunchTestSupport
import Testing
@testable import PermissionStore

@Suite("PermissionConfiguration")
struct PermissionConfigurationTests {
    let file = "/etc/relaunch/permissiond.conf"

    @Test("a full file parses: policy, several apps, comments, blank lines, CRLF")
    func goodFile() throws {
        let text = """
            # comment
              kill-policy   =   android   # trailing comment

            [app checkin-demo]
            unit = checkin-demo.service\r
            [app maps.v2]\t# a comment after a tab
            unit=maps@user.service
            """
        let configuration = try PermissionConfiguration.parse(text, file: file)
        #expect(configuration.killPolicy == .android)
        #expect(configuration.units == ["checkin-demo": "checkin-demo.service", "maps.v2": "maps@user.service"])
        #expect(configuration.apps == ["checkin-demo", "maps.v2"])
        #expect(configuration.unit(for: "nope") == nil)
    }

    @Test("the example file parses to the built-in configuration")
    func exampleIsBuiltIn() throws {
        #expect(try PermissionConfiguration.parse(PermissionConfiguration.example, file: "example") == .builtIn)
        #expect(PermissionConfiguration.builtIn.killPolicy == .ios)
        #expect(PermissionConfiguration.builtIn.apps.isEmpty, "no app is built in: apps.d registers them")
    }

    @Test("an absent file gives the built-in defaults; an existing empty file gives no apps")
    func defaultsWhenAbsent() throws {
        let directory = try TemporaryDirectory(prefix: "permissionstore-tests")
        #expect(try PermissionConfiguration.load(path: directory.path("missing.conf")) == .builtIn)
        let empty = try directory.write("# nothing\n", to: "empty.conf")
        #expect(try PermissionConfiguration.load(path: empty) == PermissionConfiguration(killPolicy: .ios, units: [:]))
    }

    @Test("a file that cannot be read is an error naming it")
    func unreadable() throws {
        let directory = try TemporaryDirectory(prefix: "permissionstore-tests")
        let error = try #require(throws: PermissionConfigurationError.self) {
            try PermissionConfiguration.load(path: directory.path)  // a directory
        }
        #expect(error.code == .unreadable && error.file == directory.path && error.line == nil)
        #expect(error.message == "cannot read the file (not a regular file); make it readable by permissiond or remove it")
        let binary = directory.path("binary.conf")
        try Data([0xff, 0xfe, 0x00]).write(to: URL(fileURLWithPath: binary))
        let notText = try #require(throws: PermissionConfigurationError.self) { try PermissionConfiguration.load(path: binary) }
        #expect(notText.code == .unreadable && notText.message == "the file is not UTF-8 text")
    }

    @Test("the app a unit runs, as permissiond decides whether it may kill that unit")
    func appOfUnit() throws {
        let configuration = try PermissionConfiguration.parse("[app checkin-demo]\nunit = checkin-demo.service\n[app maps]\nunit = maps@user.service\n", file: file)
        #expect(configuration.app(runningUnit: "maps@user.service") == "maps")
        #expect(configuration.app(runningUnit: "checkin-demo.service") == "checkin-demo")
        #expect(configuration.app(runningUnit: "sshd.service") == nil, "no app runs it: permissiond may not kill it")
    }

    struct BadFile: Sendable, CustomTestStringConvertible {
        let text: String
        let code: PermissionConfigurationError.Code
        let line: Int
        let says: [String]
        var testDescription: String { "\(code) on line \(line)" }
    }

    static let badFiles: [BadFile] = [
        BadFile(text: "\nkill-policy = windows\n", code: .invalidValue, line: 2, says: ["'windows'", "ios, android"]),
        BadFile(text: "kill-policy\n", code: .syntax, line: 1, says: ["`key = value`", "[app NAME]"]),
        BadFile(text: " = ios\n", code: .syntax, line: 1, says: ["missing key"]),
        BadFile(text: "policy = ios\n", code: .unknownKey, line: 1, says: ["'policy'", "kill-policy", "unit"]),
        BadFile(text: "kill-policy = ios\nkill-policy = android\n", code: .duplicate, line: 2, says: ["first on line 1"]),
        BadFile(text: "[service foo]\n", code: .syntax, line: 1, says: ["[app NAME]", "[service foo]"]),
        BadFile(text: "[app foo\n", code: .syntax, line: 1, says: ["[app NAME]"]),
        BadFile(text: "[app Foo]\nunit = foo.service\n", code: .invalidValue, line: 1, says: ["'Foo'", "[a-z0-9][a-z0-9._-]{0,63}"]),
        BadFile(text: "[app foo]\nunit = foo.service\n\n[app foo]\n", code: .duplicate, line: 4, says: ["first on line 1"]),
        BadFile(text: "# apps\n[app foo]\n[app bar]\nunit = bar.service\n", code: .missingKey, line: 2, says: ["[app foo]", "unit = NAME.service"]),
        BadFile(text: "[app foo]\n", code: .missingKey, line: 1, says: ["[app foo]"]),
        BadFile(text: "[app foo]\nunit = foo.socket\n", code: .invalidValue, line: 2, says: ["'foo.socket'", "ending in .service"]),
        BadFile(text: "[app foo]\nunit = foo bar.service\n", code: .invalidValue, line: 2, says: ["'foo bar.service'"]),
        BadFile(text: "[app foo]\nunit = foo.service\nunit = bar.service\n", code: .duplicate, line: 3, says: ["first on line 2"]),
        BadFile(text: "[app foo]\nunit = foo.service\nkill-policy = ios\n", code: .unknownKey, line: 3, says: ["[app foo]", "accepted there: unit", "before the first section"]),
    ]

    @Test("each mistake is reported with its file, line, what was wrong and what is accepted", arguments: badFiles)
    func badFile(_ bad: BadFile) throws {
        let error = try #require(throws: PermissionConfigurationError.self) {
            try PermissionConfiguration.parse(bad.text, file: file)
        }
        #expect(error.code == bad.code)
        #expect(error.line == bad.line)
        #expect(error.file == file)
        #expect(error.description.hasPrefix("\(file):\(bad.line): "))
        for phrase in bad.says {
            #expect(error.message.contains(phrase), "\(error.message)")
        }
    }
}
