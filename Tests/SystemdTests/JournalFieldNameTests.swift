import Testing
@testable import Systemd

@Suite("Journal field names")
struct JournalFieldNameTests {
    @Test(arguments: [
        ("MESSAGE_ID", "MESSAGE_ID"),
        ("app_id", "APP_ID"),
        ("Launch.Outcome", "LAUNCH_OUTCOME"),
        ("request-id", "REQUEST_ID"),
        ("a b\tc", "A_B_C"),
        ("2fa", "X2FA"),
        ("_SYSTEMD_UNIT", "X_SYSTEMD_UNIT"),
        ("__", "X__"),
        ("-", "X_"),
        ("é", "X_"),
        ("caféCrème", "CAF_CR_ME"),
        ("x", "X"),
        ("UNIT9", "UNIT9"),
    ])
    func sanitizes(key: String, expected: String) {
        #expect(JournalFieldName.sanitize(key) == expected)
        #expect(JournalFieldName.isValid(expected))
    }

    @Test func emptyKeyHasNoName() {
        #expect(JournalFieldName.sanitize("") == nil)
    }

    @Test func longKeysAreCutTo64() throws {
        let name = try #require(JournalFieldName.sanitize(String(repeating: "k", count: 100)))
        #expect(name == String(repeating: "K", count: 64))
        let prefixed = try #require(JournalFieldName.sanitize("1" + String(repeating: "a", count: 70)))
        #expect(prefixed.utf8.count == 64)
        #expect(prefixed.hasPrefix("X1AAA"))
    }

    @Test(arguments: ["", "1A", "_A", "a", "A-B", "A.B", String(repeating: "A", count: 65), "É"])
    func rejectsInvalidNames(name: String) {
        #expect(!JournalFieldName.isValid(name))
    }

    @Test(arguments: ["A", "MESSAGE", "A_1", String(repeating: "A", count: 64)])
    func acceptsValidNames(name: String) {
        #expect(JournalFieldName.isValid(name))
    }
}
