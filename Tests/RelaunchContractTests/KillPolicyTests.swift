import RelaunchContract
import Testing

@Suite("Kill policy")
struct KillPolicyTests {
    @Test("iOS kills on any real change of every permission but location", arguments: Permission.allCases)
    func iosPolicy(permission: Permission) {
        for old in PermissionState.allCases {
            for new in PermissionState.allCases {
                let expected = old != new && permission != .location
                #expect(KillPolicy.ios.kills(permission, from: old, to: new) == expected, "\(permission) \(old)->\(new)")
            }
        }
    }

    @Test("Android kills only when an allowed permission is taken away", arguments: Permission.allCases)
    func androidPolicy(permission: Permission) {
        for old in PermissionState.allCases {
            for new in PermissionState.allCases {
                let expected = old == .allowed && new != .allowed
                #expect(KillPolicy.android.kills(permission, from: old, to: new) == expected, "\(permission) \(old)->\(new)")
            }
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
