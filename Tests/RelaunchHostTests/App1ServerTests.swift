import Foundation
import InMemoryLogging
import Logging
import RelaunchBus
@testable import RelaunchHost
import RestorationKit
import Systemd
import RelaunchTestSupport
import Testing

/// `org.relaunch.App1` as a hosted app answers it: who may drive the app, Ready, and the test hooks.
@Suite("A hosted app's App1 methods")
struct App1ServerTests {
    static func call(_ member: String, uid: UInt32?, _ arguments: BusValues = []) -> BusMethodCall {
        BusMethodCall(interface: .app1, member: member, sender: ":1.42", senderUID: uid, arguments: arguments)
    }

    static func server(in directory: String, memory: InMemoryLogHandler, testHooks: Bool = false) -> App1Server<SceneTestApp> {
        let logger = memoryLogger(memory)
        return App1Server(host: sceneTestHost(in: directory, logger: logger, testHooks: testHooks), logger: logger)
    }

    @Test("input and what the app shows are root's: anyone else is refused, naming the polkit action that would allow it")
    func strangersAreRefused() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let server = Self.server(in: directory, memory: InMemoryLogHandler())
            let calls: [(String, BusValues)] = [("State", []), ("Screen", []), ("Elements", []), ("Tap", [.string("open")])]
            for (member, arguments) in calls {
                #expect {
                    _ = try server.handle(Self.call(member, uid: 1000, arguments))
                } throws: { error in
                    guard let error = error as? BusError else { return false }
                    return error.name == BusError.accessDeniedName && error.message.contains(AppDriveAuthorizer.action)
                }
            }
            #expect(throws: BusError.self) { try server.handle(Self.call("State", uid: nil)) }
            #expect(try server.handle(Self.call("Screen", uid: 0)).values.count == 1, "root reads the screen")
        }
    }

    @Test("root drives the app, and so does a caller polkit authorized")
    func rootAndAuthorizedDrive() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let server = Self.server(in: directory, memory: InMemoryLogHandler())
            #expect(try server.handle(Self.call("Screen", uid: 0)).values.count == 1)
            _ = try server.handle(Self.call("Tap", uid: 0, [.string("open")]))
            _ = try server.handleAuthorized(Self.call("Tap", uid: 1000, [.string("open")]))
            let state = try server.handleAuthorized(Self.call("State", uid: 1000))
            #expect(state == .string(server.host.stateJSON()))
            #expect(server.host.status() == "3 windows")
        }
    }

    @Test("Ready is open to anyone and says the app is launched, with this instance's invocation id")
    func ready() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let server = Self.server(in: directory, memory: InMemoryLogHandler())
            #expect(try server.handle(Self.call("Ready", uid: 1000)) == BusReply(.structure([.bool(true), .string("")])))
        }
    }

    @Test("TestHook crash-next-restore and stall-next-restore arm their own flag, and say which")
    func testHooksArmTheirFlag() throws {
        for (hook, verb) in [("crash-next-restore", "abort"), ("stall-next-restore", "stall")] {
            try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
                let memory = InMemoryLogHandler()
                let server = Self.server(in: directory, memory: memory, testHooks: true)
                #expect(try server.handle(Self.call("TestHook", uid: 0, [.string(hook)])) == .empty)
                let flags = try FileManager.default.contentsOfDirectory(atPath: directory)
                    .filter { CrashingRestoringMark.flagFileName == $0 || CrashingRestoringMark.stallFlagFileName == $0 }
                #expect(flags == [hook])
                #expect(entries(containing: "the next launch that restores will \(verb) while restoring", in: memory).count == 1)
            }
        }
    }

    @Test("TestHook is refused without RELAUNCH_TEST_HOOKS=1, and to anyone but root")
    func testHooksOff() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let server = Self.server(in: directory, memory: InMemoryLogHandler())
            #expect {
                _ = try server.handle(Self.call("TestHook", uid: 0, [.string("crash-next-restore")]))
            } throws: { ($0 as? BusError)?.name == App1Members.notSupportedName }
            let hooked = Self.server(in: directory, memory: InMemoryLogHandler(), testHooks: true)
            #expect {
                _ = try hooked.handle(Self.call("TestHook", uid: 1000, [.string("crash-next-restore")]))
            } throws: { ($0 as? BusError)?.name == BusError.accessDeniedName }
        }
    }

    /// Who may call each method, as the apps enforced it before the table: written out here, not
    /// read from `App1Method.access`, so a wrong row fails.
    static let accessAsEnforced: [String: App1Method.Access] = [
        "Ready": .anyone, "TestHook": .root,
        "State": .driver, "Screen": .driver, "Elements": .driver, "Tap": .driver, "Type": .driver,
        "Background": .driver, "Foreground": .driver, "Quit": .driver,
        "Scenes": .driver, "OpenScene": .driver, "CloseScene": .driver, "SceneTap": .driver,
        "SceneType": .driver, "SceneScreen": .driver, "SceneElements": .driver,
    ]

    @Test("the dispatch's one access check refuses exactly whom each method's rule refuses", arguments: App1Method.allCases)
    func accessRule(method: App1Method) throws {
        let rule = try #require(Self.accessAsEnforced[method.member], "\(method.member) has a written-down rule")
        for (uid, authorized) in [(UInt32?(0), false), (0, true), (1000, false), (1000, true), (nil, false), (nil, true)] {
            let call = Self.call(method.member, uid: uid)
            let refusal = App1Server<SceneTestApp>.refusal(of: method, call, authorized: authorized)
            let admitted = switch rule {
            case .anyone: true
            case .driver: uid == 0 || authorized
            case .root: uid == 0
            }
            #expect((refusal == nil) == admitted, "\(method.member) from uid \(uid.map(String.init) ?? "unknown"), polkit \(authorized)")
            if let refusal {
                #expect(refusal.name == BusError.accessDeniedName)
                #expect(refusal.message.contains(rule == .root ? "may only be called by root" : AppDriveAuthorizer.action))
            }
        }
    }

    @Test("a member the table lacks is UnknownMethod, naming it")
    func unknownMember() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let server = Self.server(in: directory, memory: InMemoryLogHandler())
            #expect {
                _ = try server.handle(Self.call("Fly", uid: 0))
            } throws: { ($0 as? BusError)?.name == BusError.unknownMethodName && ($0 as? BusError)?.message.contains("Fly") == true }
        }
    }
}
