/// Format 4: format 3's payload followed by the scene sessions of a scene-based app.
///
/// Scene section (after the last format-3 object):
///
///     sessions: count, then each:
///         identifier, role (varint length + UTF-8 each)
///         record: varint length + bytes, then its CRC-32 (u32)
///     record: record version u8 (1), activity present u8 (0 or 1), then when present:
///         activity type (varint length + UTF-8), title and target content identifier (each a
///         u8 0, or 1 and varint length + UTF-8), user info (a format-2 state: u32 count, then
///         key and tagged value, sorted by key)
///
/// The file's checksum covers everything, as in every format. Each session's record has a length and
/// checksum of its own besides, and is read on its own: a record that fails its checksum, does not
/// parse or has a record version this build does not know is discarded alone (`corrupt`, or
/// `unsupported-format`), and its session comes back without an activity. A fault outside the records
/// (a count, an identifier, a length) fails the whole archive, as in format 3.
enum ArchiveScenes {
    /// The format an archive with scene sessions is written in.
    static let formatVersion: UInt16 = 4
    /// The version of a session record this build writes and reads.
    static let recordVersion: UInt8 = 1

    // MARK: Writing

    static func write(_ sessions: [ArchivedSceneSession], to writer: inout ByteWriter) {
        writer.appendVarint(sessions.count)
        for session in sessions {
            writer.appendShortString(session.identifier)
            writer.appendShortString(session.role.rawValue)
            let record = record(of: session.activity)
            writer.appendVarint(record.count)
            writer.append(raw: record)
            writer.append(CRC32.checksum(record))
        }
    }

    /// The bytes of one session's record.
    static func record(of activity: UserActivity?) -> [UInt8] {
        var record = ByteWriter(capacity: 64)
        record.append(recordVersion)
        guard let activity else {
            record.append(UInt8(0))
            return record.bytes
        }
        record.append(UInt8(1))
        record.appendShortString(activity.activityType)
        for text in [activity.title, activity.targetContentIdentifier] {
            if let text {
                record.append(UInt8(1))
                record.appendShortString(text)
            } else {
                record.append(UInt8(0))
            }
        }
        ArchiveFormat2.write(activity.userInfo, to: &record)
        return record.bytes
    }

    // MARK: Reading

    static func read(from reader: inout ByteReader) throws(ArchiveError) -> [ArchivedSceneSession] {
        // A session takes at least 7 bytes: two empty strings, a 1-byte record and its checksum.
        let count = try reader.readVarintCount("scene session count", minimumItemSize: 7)
        var sessions: [ArchivedSceneSession] = []
        var seen = Set<String>()
        for _ in 0..<count {
            try reader.charge()
            let start = reader.offset
            let identifier = try reader.readShortString("scene session identifier")
            guard !identifier.isEmpty, seen.insert(identifier).inserted else {
                throw reader.fault(at: start, "scene session identifier '\(identifier)' is empty or appears twice")
            }
            let role = SceneSession.Role(rawValue: try reader.readShortString("scene session role"))
            let recordStart = reader.offset
            let record = try reader.readShortBytes("scene session record")
            let stored = try reader.readUInt32("scene session record checksum")
            let actual = CRC32.checksum(record)
            guard actual == stored else {
                let detail = "record of scene session \(identifier) at byte \(recordStart) has checksum "
                    + "\(hex(actual)), expected \(hex(stored))"
                var session = ArchivedSceneSession(identifier: identifier, role: role, discarded: .corrupt, detail: detail)
                session.recordChecksumHolds = false
                sessions.append(session)
                continue
            }
            do throws(ArchiveError) {
                let activity = try ByteReader.read(record, reportingFrom: recordStart) { (inner) throws(ArchiveError) in
                    try readRecord(from: &inner)
                }
                sessions.append(ArchivedSceneSession(identifier: identifier, role: role, activity: activity))
            } catch {
                let detail = "record of scene session \(identifier): \(error)"
                sessions.append(ArchivedSceneSession(
                    identifier: identifier, role: role, discarded: error.discardReason, detail: detail))
            }
        }
        return sessions
    }

    /// One session's record: its activity, if it has one.
    private static func readRecord(from reader: inout ByteReader) throws(ArchiveError) -> UserActivity? {
        let version = try reader.readUInt8("scene session record version")
        guard version == recordVersion else {
            throw .unsupportedVersion(found: UInt16(version), supported: UInt16(recordVersion))
        }
        let present = try reader.readUInt8("activity flag")
        guard present <= 1 else { throw reader.fault("activity flag is \(present), not 0 or 1") }
        guard present == 1 else {
            guard reader.isAtEnd else { throw reader.fault("\(reader.remaining) bytes after a record without activity") }
            return nil
        }
        var activity = UserActivity(activityType: try reader.readShortString("activity type"))
        var optional: [String?] = []
        for what in ["activity title", "target content identifier"] {
            let flag = try reader.readUInt8(what)
            guard flag <= 1 else { throw reader.fault("\(what) flag is \(flag), not 0 or 1") }
            optional.append(flag == 1 ? try reader.readShortString(what) : nil)
        }
        activity.title = optional[0]
        activity.targetContentIdentifier = optional[1]
        activity.userInfo = try ArchiveFormat2.readState(from: &reader)
        guard reader.isAtEnd else { throw reader.fault("\(reader.remaining) bytes after the activity's user info") }
        return activity
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}

/// One scene session as an archive keeps it: its identity and the activity its scene saved.
///
/// Each session's activity is stored as a record of its own, with its own length and checksum, so
/// that a record this build cannot read is discarded alone (`discardReason`) while the other
/// sessions restore. The session itself (identifier and role) still comes back, without an activity,
/// as a window does in UIKit whose restoration data was lost.
public struct ArchivedSceneSession: Equatable, Sendable {
    /// The session's persistent identifier.
    public var identifier: String
    /// Its role.
    public var role: SceneSession.Role
    /// The activity its scene saved, if any.
    public var activity: UserActivity?
    /// Why its saved activity was discarded when the archive was read (nil when it was read).
    public var discardReason: DiscardReason?
    /// What was wrong with it, for logs (nil when it was read).
    public var discardDetail: String?
    /// Whether its record's own CRC-32 matched when the archive was read (false: `corrupt` by its
    /// checksum; a record whose checksum holds may still fail to parse).
    public var recordChecksumHolds = true

    /// A session record of the given parts.
    ///
    /// - Parameters:
    ///   - identifier: The session's persistent identifier.
    ///   - role: Its role.
    ///   - activity: The activity its scene saved.
    public init(identifier: String, role: SceneSession.Role = .windowApplication, activity: UserActivity?) {
        self.identifier = identifier
        self.role = role
        self.activity = activity
    }

    /// A session whose saved activity could not be read.
    init(identifier: String, role: SceneSession.Role, discarded reason: DiscardReason, detail: String) {
        self.identifier = identifier
        self.role = role
        discardReason = reason
        discardDetail = detail
    }
}
