import Foundation
import RelaunchContract
import Testing

@Suite("Permission profiles")
struct PermissionProfileTests {
    /// Every transition of one permission under one profile, written out by hand from
    /// docs/PERMISSIONS.md's reasoning (iOS: a privacy setting's change kills, location and
    /// notifications are seen in place; Android: a change that takes access away kills, any other is
    /// seen when the app next looks), not computed: a wrong table in the code cannot also make this
    /// one wrong. `K` kill, `N` notified, `-` nothing, `.` no change.
    struct Matrix: CustomTestStringConvertible, Sendable {
        var profile: KillPolicy
        var permission: Permission
        var states: [PermissionState]
        var rows: [String]
        var testDescription: String { "\(profile) \(permission)" }
        init(_ profile: KillPolicy, _ permission: Permission, _ states: [PermissionState], _ rows: [String]) {
            (self.profile, self.permission, self.states, self.rows) = (profile, permission, states, rows)
        }
    }

    static let nd = PermissionState.notDetermined, de = PermissionState.denied, al = PermissionState.allowed
    static let li = PermissionState.limited, ao = PermissionState.addOnly, wo = PermissionState.writeOnly
    static let wa = PermissionState.whileUsingApproximate, aa = PermissionState.alwaysApproximate
    static let aw = PermissionState.always, pr = PermissionState.provisional, on = PermissionState.allowedOnce

    static let matrices: [Matrix] = [
        Matrix(.ios, .camera, [nd, de, al], [".KK", "K.K", "KK."]),
        Matrix(.ios, .microphone, [nd, de, al], [".KK", "K.K", "KK."]),
        Matrix(.ios, .photos, [nd, de, ao, li, al], [".KKKK", "K.KKK", "KK.KK", "KKK.K", "KKKK."]),
        Matrix(.ios, .contacts, [nd, de, li, al], [".KKK", "K.KK", "KK.K", "KKK."]),
        Matrix(.ios, .calendars, [nd, de, wo, al], [".KKK", "K.KK", "KK.K", "KKK."]),
        Matrix(.ios, .location, [nd, de, wa, al, aa, aw], [".NNNNN", "N.NNNN", "NN.NNN", "NNN.NN", "NNNN.N", "NNNNN."]),
        Matrix(.ios, .notifications, [nd, de, pr, al], [".NNN", "N.NN", "NN.N", "NNN."]),
        Matrix(.android, .camera, [nd, de, al, on], [".---", "-.--", "KK.K", "KK-."]),
        Matrix(.android, .microphone, [nd, de, al, on], [".---", "-.--", "KK.K", "KK-."]),
        Matrix(.android, .photos, [nd, de, li, al], [".---", "-.--", "KK.-", "KKK."]),
        Matrix(.android, .contacts, [nd, de, al], [".--", "-.-", "KK."]),
        Matrix(.android, .calendars, [nd, de, al], [".--", "-.-", "KK."]),
        Matrix(
            .android, .location, [nd, de, on, wa, al, aa, aw],
            [
                ".------",
                "-.-----",
                "KK.K-K-",  // allowed-once: losing precise or the grant kills; keeping both does not
                "KKK.---",  // while-using approximate -> allowed-once loses the lasting grant
                "KKKK.K-",  // allowed (while using, precise)
                "KKKKK.-",  // always approximate: leaving background or going one-time kills
                "KKKKKK.",
            ]),
        Matrix(.android, .notifications, [nd, de, al], [".--", "-.-", "KK."]),
    ]

    @Test("the written matrices cover every permission of both profiles, with exactly the profile's states")
    func matricesAreComplete() {
        for profile in KillPolicy.allCases {
            for permission in Permission.allCases {
                let written = Self.matrices.filter { $0.profile == profile && $0.permission == permission }
                #expect(written.count == 1, "\(profile) \(permission)")
                #expect(written.first?.states == profile.profile.rule(permission).states.map(\.state), "\(profile) \(permission)")
            }
        }
    }

    @Test("every transition of both profiles does what the written matrix says", arguments: matrices)
    func everyTransition(_ matrix: Matrix) {
        #expect(matrix.rows.count == matrix.states.count)
        for (old, row) in zip(matrix.states, matrix.rows) {
            #expect(row.count == matrix.states.count, "row \(old)")
            for (new, cell) in zip(matrix.states, row) {
                let expected: TransitionEffect =
                    switch cell {
                    case "K": .kill
                    case "N": .notified
                    default: .nothing
                    }
                let effect = matrix.profile.effect(of: matrix.permission, from: old, to: new)
                #expect(effect == expected, "\(matrix.profile) \(matrix.permission) \(old) -> \(new)")
                #expect(matrix.profile.kills(matrix.permission, from: old, to: new) == (cell == "K"))
            }
        }
    }

    @Test("allowed, denied and not-determined exist for every permission of both profiles")
    func oldStatesEverywhere() {
        for profile in KillPolicy.allCases {
            for permission in Permission.allCases {
                for state in [PermissionState.allowed, .denied, .notDetermined] {
                    #expect(profile.profile.state(named: state.rawValue, for: permission) == state, "\(profile) \(permission)")
                }
            }
        }
    }

    @Test("other names: full, none, never, while-using; a state another permission takes is refused")
    func aliases() {
        let ios = PermissionProfile.ios
        #expect(ios.state(named: "full", for: .photos) == .allowed)
        #expect(ios.state(named: "none", for: .contacts) == .denied)
        #expect(ios.state(named: "never", for: .location) == .denied)
        #expect(ios.state(named: "while-using", for: .location) == .allowed)
        #expect(ios.state(named: "limited", for: .camera) == nil)
        #expect(ios.state(named: "allowed-once", for: .camera) == nil)
        #expect(PermissionProfile.android.state(named: "allowed-once", for: .camera) == .allowedOnce)
        #expect(ios.rule(.photos).acceptedNames == "not-determined, denied (none), add-only, limited, allowed (full)")
    }

    @Test("leaving a state the profile does not list counts as a revoke (an ios state under android)")
    func unknownStateIsConservative() {
        #expect(KillPolicy.android.effect(of: .photos, from: .addOnly, to: .allowed) == .kill)
        #expect(KillPolicy.android.effect(of: .notifications, from: .provisional, to: .allowed) == .kill)
        #expect(KillPolicy.android.effect(of: .photos, from: .allowed, to: .allowed) == .nothing)
    }

    @Test("today's kill policies hold for the three old states")
    func oldPolicies() {
        for permission in Permission.allCases {
            for old in [PermissionState.allowed, .denied, .notDetermined] {
                for new in [PermissionState.allowed, .denied, .notDetermined] where new != old {
                    let iosKills = permission != .location && permission != .notifications
                    #expect(KillPolicy.ios.kills(permission, from: old, to: new) == iosKills, "\(permission) \(old)->\(new)")
                    #expect(KillPolicy.android.kills(permission, from: old, to: new) == (old == .allowed))
                }
            }
        }
    }

    @Test("docs/PERMISSIONS.md holds each profile's table exactly as the code has it")
    func documentMatchesTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/PERMISSIONS.md"), encoding: .utf8)
        for profile in KillPolicy.allCases {
            let table = profile.profile.markdown
            #expect(document.contains(table), "docs/PERMISSIONS.md lacks or differs from:\n\(table)")
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
