import Foundation
import RestorationKit
import RelaunchTestSupport
import Testing

/// `relaunchctl archive dump` of a scene-based app's archive (format 4): every session, and a
/// damaged one shown as such while the others print.
@Suite("relaunchctl archive dump: scene sessions")
struct ArchiveDumpScenesTests {
    /// A format-4 archive of three windows, the second one's note containing `marker`.
    private static func threeWindows(marker: String = "MARKER") throws -> [UInt8] {
        var archive = RestorationArchive(
            header: ArchiveHeader(buildVersion: "7", timestamp: 0, generation: 3), applicationState: [:], controllers: [])
        archive.sceneSessions = [
            ArchivedSceneSession(identifier: "AAAA-1", activity: UserActivity(
                activityType: "org.relaunch.notes.editing", title: "Groceries",
                userInfo: ["note": .string("milk"), "cursor": .int(4)], targetContentIdentifier: "note-1")),
            ArchivedSceneSession(identifier: "BBBB-2", activity: UserActivity(
                activityType: "org.relaunch.notes.editing", title: "Plans", userInfo: ["note": .string(marker)])),
            ArchivedSceneSession(identifier: "CCCC-3", role: .windowExternalDisplayNonInteractive, activity: nil),
        ]
        return try ArchiveCodec.encode(archive)
    }

    /// `bytes` with the first byte of `text` flipped, the file's checksum made right again.
    private static func damaging(_ text: String, in bytes: [UInt8]) throws -> [UInt8] {
        let needle = Array(text.utf8)
        let at = try #require(bytes.indices.first { bytes[$0...].starts(with: needle) })
        var damaged = bytes
        damaged[at] ^= 0x20
        let sum = CRC32.checksum(damaged[16...], continuing: CRC32.checksum(damaged[4..<12]))
        for index in 0..<4 { damaged[12 + index] = UInt8(truncatingIfNeeded: sum >> (8 * UInt32(index))) }
        return damaged
    }

    private static func dump(_ bytes: [UInt8], json: Bool) throws -> Executable.Result {
        let folder = try TemporaryDirectory(prefix: "relaunchctl-test")
        try ArchiveFile(directory: folder.path, fileName: "restoration.archive").write(bytes)
        return try Executable.run(["archive", "dump", folder.path + "/restoration.archive"] + (json ? ["--json"] : []))
    }

    @Test("text: each session's id, role, checksum, activity type, title and user info keys")
    func text() throws {
        let result = try Self.dump(try Self.threeWindows(), json: false)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("archive: format 4, build 7, generation 3"), "\(result.stdout)")
        #expect(result.stdout.contains("""
            scene sessions: 3
            session AAAA-1
                role UIWindowSceneSessionRoleApplication
                record checksum ok
                activity type "org.relaunch.notes.editing"
                title "Groceries"
                target content identifier "note-1"
                userInfo keys: cursor, note
                    cursor = 4
                    note = "milk"
            session BBBB-2
            """), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("""
            session CCCC-3
                role UIWindowSceneSessionRoleExternalDisplayNonInteractive
                record checksum ok
                no activity saved

            """), "\(result.stdout)")
    }

    @Test("a damaged session is shown as such, with its reason, while the others print")
    func damaged() throws {
        let bytes = try Self.damaging("MARKER", in: try Self.threeWindows())
        let text = try Self.dump(bytes, json: false)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("session BBBB-2\n    role UIWindowSceneSessionRoleApplication\n    record checksum BAD\n    DISCARDED (corrupt): record of scene session BBBB-2"), "\(text.stdout)")
        #expect(text.stdout.contains("title \"Groceries\""))
        #expect(text.stdout.contains("session CCCC-3"))
        #expect(!text.stdout.contains("mARKER") && !text.stdout.contains("title \"Plans\""))

        let json = try Self.dump(bytes, json: true)
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let sessions = try #require(object["sceneSessions"] as? [[String: Any]])
        #expect(sessions.map { $0["session"] as? String } == ["AAAA-1", "BBBB-2", "CCCC-3"])
        #expect(sessions.map { $0["recordChecksumOK"] as? Bool } == [true, false, true])
        #expect(sessions.map { $0["discarded"] as? String } == [nil, "corrupt", nil])
        #expect(sessions[0]["activityType"] as? String == "org.relaunch.notes.editing")
        #expect(sessions[0]["title"] as? String == "Groceries")
        #expect(sessions[0]["userInfoKeys"] as? [String] == ["cursor", "note"])
        #expect(sessions[1]["activityType"] is NSNull)
        #expect(sessions[2]["role"] as? String == "UIWindowSceneSessionRoleExternalDisplayNonInteractive")
    }

    @Test("an archive without scenes has an empty sceneSessions array and no scene section")
    func noScenes() throws {
        let archive = RestorationArchive(
            header: ArchiveHeader(buildVersion: "7", timestamp: 0, generation: 1), applicationState: [:], controllers: [])
        let bytes = try ArchiveCodec.encode(archive)
        #expect(!(try Self.dump(bytes, json: false)).stdout.contains("scene sessions"))
        #expect(try Self.dump(bytes, json: true).stdout.contains("\"sceneSessions\": []"))
    }
}
