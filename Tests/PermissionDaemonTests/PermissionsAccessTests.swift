import PermissionDaemon
import PermissionStore
import RelaunchBus
import RelaunchContract
import Systemd
import Testing

/// permissiond's one access check, over every method, every kind of caller and both of polkit's
/// answers: what the table's rows say is what is enforced, with today's errors and messages.
@Suite("Permissions1's access rules, as permissiond enforces them")
struct PermissionsAccessTests {
    static let app = DaemonHarness.app(0)
    static let unit = DaemonHarness.unit(0)

    /// Who may call each method, as permissiond enforced it before the table: written out here,
    /// not read from `Permissions1Method.access`, so a wrong row fails.
    static let accessAsEnforced: [String: Permissions1Method.Access] = [
        "Get": .reader, "List": .reader, "LastKill": .reader, "ListApps": .anyone,
        "Set": .changer, "Reset": .changer, "Lifecycle": .appItself, "TestHook": .root,
    ]

    /// The polkit action each method asks about for a caller who is neither root nor the app.
    static let actionAsEnforced: [String: String] = [
        "Get": "org.relaunch.permissions.read", "List": "org.relaunch.permissions.read",
        "LastKill": "org.relaunch.permissions.read", "Set": "org.relaunch.permissions.set",
        "Reset": "org.relaunch.permissions.set",
    ]

    struct Who: Sendable, CustomStringConvertible {
        let description: String
        let caller: Caller
        var isRoot: Bool { caller.uid == 0 }
        var isTheApp: Bool { caller.unit == PermissionsAccessTests.unit }
    }

    static let callers = [
        Who(description: "root", caller: Caller(uid: 0, busName: ":1.3")),
        Who(description: "the app itself", caller: Caller(uid: 1000, busName: ":1.42", unit: unit)),
        Who(description: "a stranger", caller: Caller(uid: 1000, busName: ":1.43", unit: "session-3.scope")),
        Who(description: "another app", caller: Caller(uid: 1001, busName: ":1.44", unit: DaemonHarness.unit(1))),
        Who(description: "a caller in no unit", caller: Caller(uid: 1000, busName: ":1.45")),
        Who(description: "a near miss", caller: Caller(uid: 1000, busName: ":1.46", unit: unit + ".d")),
    ]

    /// permissiond's work over `app-0` and `app-1`, asking polkit, which answers `verdict`.
    static func harness(polkitSays verdict: PolkitVerdict) throws -> (DaemonHarness, ScriptedPolkit) {
        let polkit = ScriptedPolkit(.answer(verdict))
        return (try DaemonHarness(apps: 2, authorizer: PolkitAuthorizer(authority: polkit)), polkit)
    }

    @Test("the one access check refuses exactly whom each method's rule refuses", arguments: Permissions1Method.allCases)
    func accessRule(method: Permissions1Method) async throws {
        let rule = try #require(Self.accessAsEnforced[method.member], "\(method.member) has a written-down rule")
        for polkitSaysYes in [false, true] {
            let (harness, polkit) = try Self.harness(polkitSays: polkitSaysYes ? .authorized : .denied)
            let service = harness.service
            for who in Self.callers {
                let context = "\(method.member) from \(who), polkit \(polkitSaysYes ? "yes" : "no")"
                let app: String? = method.busMethod.inputs.first?.name == "app" ? Self.app : nil
                let atOnce = switch rule {
                case .anyone: true
                case .reader, .appItself: who.isRoot || who.isTheApp
                case .changer, .root: who.isRoot
                }
                let asked = !atOnce && Self.actionAsEnforced[method.member] != nil
                let admitted = atOnce || (asked && polkitSaysYes)
                #expect(service.admitsAtOnce(method, app: app, caller: who.caller) == atOnce, "\(context)")
                let before = polkit.questions.count
                let refusal = await refusal { () throws(PermissionServiceError) in
                    try await service.authorize(method, app: app, caller: who.caller)
                }
                #expect((refusal == nil) == admitted, "\(context): \(String(describing: refusal))")
                let questions = Array(polkit.questions.dropFirst(before))
                if asked {
                    let action = try #require(Self.actionAsEnforced[method.member])
                    #expect(questions == ["\(action) \(who.caller.busName ?? "") false"], "\(context)")
                } else {
                    #expect(questions.isEmpty, "\(context): polkit is not asked")
                }
                guard let refusal else { continue }
                #expect(refusal.dbusName == "org.freedesktop.DBus.Error.AccessDenied", "\(context)")
                let says = switch rule {
                case .anyone: "nothing"
                case .reader: "is not authorized for org.relaunch.permissions.read (reading the permissions of app-0, which is not the caller's own app)"
                case .changer: "is not authorized for org.relaunch.permissions.set (changing permissions)"
                case .appItself: "only 'app-0' itself (a process of its registered unit) or root reports its lifecycle"
                case .root: "TestHook is for root only"
                }
                #expect(refusal.message.contains(says), "\(context): \(refusal.message)")
            }
        }
    }

    @Test("a caller not yet looked up is answered at once only where anyone may call")
    func unknownCaller() throws {
        let (harness, _) = try Self.harness(polkitSays: .authorized)
        for method in Permissions1Method.allCases {
            #expect(harness.service.admitsAtOnce(method, app: Self.app, caller: nil) == (Self.accessAsEnforced[method.member] == .anyone))
        }
    }
}
