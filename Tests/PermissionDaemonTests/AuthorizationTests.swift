import PermissionDaemon
import PermissionStore
import Synchronization
import Systemd
import Testing

/// polkit as a stand-in: answers what it is told, or cannot be reached; records who was asked about.
final class ScriptedPolkit: PolkitChecking {
    enum Script: Sendable {
        case answer(PolkitVerdict)
        case unreachable
    }

    let script: Script
    private let asked = Mutex<[String]>([])

    init(_ script: Script) {
        self.script = script
    }

    /// "action busName interactive", one per question.
    var questions: [String] { asked.withLock { $0 } }

    func check(action: String, busName: String, interactive: Bool) async throws(BusError) -> PolkitVerdict {
        asked.withLock { $0.append("\(action) \(busName) \(interactive)") }
        switch script {
        case .answer(let verdict): return verdict
        case .unreachable:
            throw BusError(name: "org.freedesktop.DBus.Error.ServiceUnknown", message: "polkit is not running")
        }
    }
}

@Suite("Authorization: root passes, polkit's answer is honoured, no answer is never a yes")
struct AuthorizationTests {
    static let user = Caller(uid: 1000, busName: ":1.42")

    @Test("Root changes and reads without polkit being asked")
    func rootPasses() async {
        let polkit = ScriptedPolkit(.answer(.denied))
        let authorizer = PolkitAuthorizer(authority: polkit)
        let root = Caller(uid: 0, busName: ":1.3")
        #expect(await refusal { () throws(PermissionServiceError) in try await authorizer.authorizeChange(by: root) } == nil)
        #expect(await refusal { () throws(PermissionServiceError) in try await authorizer.authorizeRead(of: "app-0", by: root) } == nil)
        #expect(polkit.questions.isEmpty)
    }

    @Test("polkit's yes lets a user through; its question names the action and the caller's bus name")
    func polkitYes() async {
        let polkit = ScriptedPolkit(.answer(.authorized))
        let authorizer = PolkitAuthorizer(authority: polkit)
        var caller = Self.user
        caller.interactive = true
        #expect(await refusal { () throws(PermissionServiceError) in try await authorizer.authorizeChange(by: caller) } == nil)
        #expect(await refusal { () throws(PermissionServiceError) in try await authorizer.authorizeRead(of: "app-0", by: Self.user) } == nil)
        #expect(polkit.questions == ["org.relaunch.permissions.set :1.42 true", "org.relaunch.permissions.read :1.42 false"])
    }

    @Test("polkit's no, and its 'authenticate first', refuse with AccessDenied and say what to do")
    func polkitNo() async {
        let cases: [(PolkitVerdict, String)] = [(.denied, "group 'relaunch'"), (.challenge, "authentication is required")]
        for (verdict, hint) in cases {
            let authorizer = PolkitAuthorizer(authority: ScriptedPolkit(.answer(verdict)))
            let error = await refusal { () throws(PermissionServiceError) in try await authorizer.authorizeChange(by: Self.user) }
            #expect(error?.dbusName == "org.freedesktop.DBus.Error.AccessDenied", "\(String(describing: error))")
            #expect(error?.message.contains(hint) == true, "\(String(describing: error))")
        }
    }

    @Test("polkit unreachable: refused, never allowed")
    func polkitUnreachable() async {
        let authorizer = PolkitAuthorizer(authority: ScriptedPolkit(.unreachable))
        let change = await refusal { () throws(PermissionServiceError) in try await authorizer.authorizeChange(by: Self.user) }
        let read = await refusal { () throws(PermissionServiceError) in try await authorizer.authorizeRead(of: "app-0", by: Self.user) }
        for error in [change, read] {
            #expect(error?.dbusName == "org.freedesktop.DBus.Error.AccessDenied", "\(String(describing: error))")
            #expect(error?.message.contains("polkit could not be asked") == true)
        }
    }

    @Test("polkit over a bus that cannot be reached at all: refused")
    func polkitOverNoBus() async {
        let link = BusLink(open: { () throws(SystemdError) in
            try BusConnection(address: "unix:path=/nonexistent/relaunch-tests/bus")
        })
        defer { link.close() }
        let authorizer = PolkitAuthorizer(authority: PolkitAuthority(link: link))
        let error = await refusal { () throws(PermissionServiceError) in try await authorizer.authorizeChange(by: Self.user) }
        #expect(error?.dbusName == "org.freedesktop.DBus.Error.AccessDenied", "\(String(describing: error))")
    }

    @Test("A caller the bus did not name is refused without asking polkit")
    func unnamedCallerRefused() async {
        let polkit = ScriptedPolkit(.answer(.authorized))
        let authorizer = PolkitAuthorizer(authority: polkit)
        let error = await refusal { () throws(PermissionServiceError) in
            try await authorizer.authorizeChange(by: Caller(uid: UInt32.max))
        }
        #expect(error?.dbusName == "org.freedesktop.DBus.Error.AccessDenied")
        #expect(polkit.questions.isEmpty)
    }
}
