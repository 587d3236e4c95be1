import RelaunchContract
import Testing

@Suite("Kill policy")
struct KillPolicyTests {
    /// One row of the written truth table: under `policy`, changing a permission of `kind` from `old`
    /// to `new` kills (`true`) or not.
    struct Row: CustomTestStringConvertible, Sendable {
        enum Kind: Sendable { case location, other }
        var policy: KillPolicy
        var kind: Kind
        var old: PermissionState
        var new: PermissionState
        var kills: Bool
        var testDescription: String { "\(policy) \(kind) \(old)->\(new) kills=\(kills)" }
        init(_ policy: KillPolicy, _ kind: Kind, _ old: PermissionState, _ new: PermissionState, _ kills: Bool) {
            (self.policy, self.kind, self.old, self.new, self.kills) = (policy, kind, old, new, kills)
        }
    }

    /// Written out by hand from CONTRACT.md ("ios": any change of every permission but location kills;
    /// "android": only a revoke kills), not computed: a wrong implementation cannot also make the table wrong.
    static let table: [Row] = [
        Row(.ios, .other, .allowed, .allowed, false),
        Row(.ios, .other, .allowed, .denied, true),
        Row(.ios, .other, .allowed, .notDetermined, true),
        Row(.ios, .other, .denied, .allowed, true),
        Row(.ios, .other, .denied, .denied, false),
        Row(.ios, .other, .denied, .notDetermined, true),
        Row(.ios, .other, .notDetermined, .allowed, true),
        Row(.ios, .other, .notDetermined, .denied, true),
        Row(.ios, .other, .notDetermined, .notDetermined, false),
        Row(.ios, .location, .allowed, .allowed, false),
        Row(.ios, .location, .allowed, .denied, false),
        Row(.ios, .location, .allowed, .notDetermined, false),
        Row(.ios, .location, .denied, .allowed, false),
        Row(.ios, .location, .denied, .denied, false),
        Row(.ios, .location, .denied, .notDetermined, false),
        Row(.ios, .location, .notDetermined, .allowed, false),
        Row(.ios, .location, .notDetermined, .denied, false),
        Row(.ios, .location, .notDetermined, .notDetermined, false),
        Row(.android, .other, .allowed, .allowed, false),
        Row(.android, .other, .allowed, .denied, true),
        Row(.android, .other, .allowed, .notDetermined, true),
        Row(.android, .other, .denied, .allowed, false),
        Row(.android, .other, .denied, .denied, false),
        Row(.android, .other, .denied, .notDetermined, false),
        Row(.android, .other, .notDetermined, .allowed, false),
        Row(.android, .other, .notDetermined, .denied, false),
        Row(.android, .other, .notDetermined, .notDetermined, false),
        Row(.android, .location, .allowed, .allowed, false),
        Row(.android, .location, .allowed, .denied, true),
        Row(.android, .location, .allowed, .notDetermined, true),
        Row(.android, .location, .denied, .allowed, false),
        Row(.android, .location, .denied, .denied, false),
        Row(.android, .location, .denied, .notDetermined, false),
        Row(.android, .location, .notDetermined, .allowed, false),
        Row(.android, .location, .notDetermined, .denied, false),
        Row(.android, .location, .notDetermined, .notDetermined, false),
    ]

    @Test("the table covers every policy, kind and pair of states once")
    func tableIsComplete() {
        #expect(Self.table.count == KillPolicy.allCases.count * 2 * PermissionState.allCases.count * PermissionState.allCases.count)
        #expect(Set(Self.table.map(\.testDescription)).count == Self.table.count)
    }

    @Test("each policy kills exactly as the written table says", arguments: table)
    func truthTable(_ row: Row) {
        let permissions: [Permission] = row.kind == .location ? [.location] : Permission.allCases.filter { $0 != .location }
        for permission in permissions {
            #expect(row.policy.kills(permission, from: row.old, to: row.new) == row.kills, "\(permission)")
        }
    }

    @Test("Message ids are 32 lowercase hex digits and distinct")
    func messageIDs() {
        let ids = MessageID.allCases.map(\.rawValue)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.count == 32)
            #expect(id.allSatisfy { "0123456789abcdef".contains($0) })
        }
    }
}
