import RelaunchContract
import RestorationKit

// Compiled with ArchiveText.swift into the archive-dump fuzz target too: no ArgumentParser here.

extension ArchiveText {
    /// A format-4 archive's scene sessions for people, in the order their windows were opened: each
    /// session's identifier, role and whether its record's own checksum holds, then its activity
    /// (type, title, target content identifier, user info), or why its record was discarded. A damaged
    /// session is shown as such; the others print as usual. Empty for an archive without sessions.
    static func scenesText(_ sessions: [ArchivedSceneSession]) -> String {
        guard !sessions.isEmpty else { return "" }
        // The sessions are the app's to write: every string escaped (the type's doc).
        let inert = TerminalText.escaped
        var out = "scene sessions: \(sessions.count)\n"
        for session in sessions {
            out += "session \(inert(session.identifier))\n"
            out += "    role \(inert(session.role.rawValue))\n"
            out += "    record checksum " + (session.recordChecksumHolds ? "ok" : "BAD") + "\n"
            if let reason = session.discardReason {
                out += "    DISCARDED (\(reason.rawValue)): \(inert(session.discardDetail ?? "unreadable"))\n"
                continue
            }
            guard let activity = session.activity else {
                out += "    no activity saved\n"
                continue
            }
            out += "    activity type \(inert(jsonString(activity.activityType)))\n"
            out += "    title \(activity.title.map { inert(jsonString($0)) } ?? "none")\n"
            if let target = activity.targetContentIdentifier {
                out += "    target content identifier \(inert(jsonString(target)))\n"
            }
            out += "    userInfo keys: " + (activity.userInfo.isEmpty ? "none" : inert(activity.userInfo.keys.sorted().joined(separator: ", "))) + "\n"
            for (key, value) in activity.userInfo.sorted(by: { $0.key < $1.key }) {
                out += "        \(inert(key)) = \(describe(value))\n"
            }
        }
        return out
    }

    /// The sessions as a JSON array of `{"session", "role", "recordChecksumOK", "discarded",
    /// "detail", "activityType", "title", "targetContentIdentifier", "userInfoKeys", "userInfo"}`;
    /// a discarded session's activity members are null.
    static func scenesJSON(_ sessions: [ArchivedSceneSession]) -> String {
        "[" + sessions.map { session in
            let activity = session.activity
            return "{\"session\": \(jsonString(session.identifier)), \"role\": \(jsonString(session.role.rawValue)), "
                + "\"recordChecksumOK\": \(session.recordChecksumHolds), "
                + "\"discarded\": \(session.discardReason.map { jsonString($0.rawValue) } ?? "null"), "
                + "\"detail\": \(session.discardDetail.map(jsonString) ?? "null"), "
                + "\"activityType\": \(activity.map { jsonString($0.activityType) } ?? "null"), "
                + "\"title\": \(activity?.title.map(jsonString) ?? "null"), "
                + "\"targetContentIdentifier\": \(activity?.targetContentIdentifier.map(jsonString) ?? "null"), "
                + "\"userInfoKeys\": " + (activity.map { "[" + $0.userInfo.keys.sorted().map(jsonString).joined(separator: ", ") + "]" } ?? "null")
                + ", \"userInfo\": " + (activity.map { jsonObject($0.userInfo) } ?? "null") + "}"
        }.joined(separator: ", ") + "]"
    }
}
