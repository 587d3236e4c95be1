import RelaunchTestSupport
import Testing
@testable import Systemd

@Suite("Journal reader", .enabled(if: JournalFixture.isAvailable, "needs root, unshare and systemd-journald to write a real journal"))
struct JournalReaderTests {
    @Test func readsEntriesFieldsTimestampsAndCursors() throws {
        let directory = try TemporaryDirectory(prefix: "journal")
        let reader = try JournalReader(directory: try JournalFixture.write(into: directory))

        try reader.addMatch("SYSLOG_IDENTIFIER", "relaunch-test")
        try reader.seekHead()
        let entries = try reader.entries()
        try #require(entries.count == 2)
        let first = entries[0]
        #expect(first.message == "first entry")
        #expect(first.messageID == "0c3ece682843457296ab0da296a09171")
        #expect(first["LAUNCH_OUTCOME"] == "restored")
        #expect(first["PRIORITY"] == "5")
        #expect(first["_TRANSPORT"] == "journal")
        #expect(first.realtimeMicroseconds > 1_600_000_000_000_000)
        #expect(first.bootID.utf8.count == 32)
        #expect(!first.cursor.isEmpty)
        #expect(entries[1]["LIFECYCLE"] == "background")
        #expect(entries[1].realtimeMicroseconds >= first.realtimeMicroseconds)

        // Backwards from the tail.
        try reader.seekTail()
        #expect(try reader.previousEntry()?.message == "second entry")
        #expect(try reader.field("LIFECYCLE") == "background")
        #expect(try reader.field("NO_SUCH_FIELD") == nil)

        // Cursors round-trip.
        try reader.seek(cursor: first.cursor)
        #expect(try reader.next())
        #expect(try reader.isAt(cursor: first.cursor))
        #expect(try reader.cursor() == first.cursor)

        // Realtime seek lands on or after the time given.
        try reader.seek(realtimeMicroseconds: entries[1].realtimeMicroseconds)
        #expect(try reader.nextEntry()?.realtimeMicroseconds == entries[1].realtimeMicroseconds)
    }

    @Test func picksWhatCurrentFieldsReads() throws {
        let directory = try TemporaryDirectory(prefix: "journal")
        let reader = try JournalReader(directory: try JournalFixture.write(into: directory))
        var picker = JournalFieldPicker(["MESSAGE", "LIFECYCLE", "NO_SUCH_FIELD", "_TRANSPORT", "MESSAGE_ID"])
        try reader.seekHead()
        var count = 0
        while try reader.next() {
            let all = try reader.currentFields()
            try reader.pick(&picker)
            #expect(picker.fields == all.filter { picker.names.contains($0.key) })
            #expect(picker.value(of: 2) == nil)
            #expect(picker.has(4, equalTo: all["MESSAGE_ID"] ?? "-") == (all["MESSAGE_ID"] != nil))
            count += 1
        }
        #expect(count >= 3)  // ours, and journald's own
    }

    @Test func matchesCombineWithDisjunctions() throws {
        let directory = try TemporaryDirectory(prefix: "journal")
        let reader = try JournalReader(directory: try JournalFixture.write(into: directory))

        try reader.addMatch("MESSAGE_ID", "7cff30b26abb44549eb0f7570b7c2ef9")
        try reader.addDisjunction()
        try reader.addMatch("SYSLOG_IDENTIFIER", "relaunch-other")
        try reader.seekHead()
        let messages = try reader.entries().compactMap(\.message)
        #expect(messages == ["second entry", "third from stdout"])

        reader.flushMatches()
        try reader.addMatch("MESSAGE_ID", "0c3ece682843457296ab0da296a09171")
        try reader.addMatch("MESSAGE_ID", "7cff30b26abb44549eb0f7570b7c2ef9")  // same field: either
        try reader.addConjunction()
        try reader.addMatch("LIFECYCLE", "background")
        try reader.seekHead()
        #expect(try reader.entries().compactMap(\.message) == ["second entry"])
    }
}

@Suite("Journal field picker")
struct JournalFieldPickerTests {
    func picked(_ items: [String], _ names: [String]) -> JournalFieldPicker {
        var picker = JournalFieldPicker(names)
        picker.reset()
        for item in items {
            Array(item.utf8).withUnsafeBytes { picker.offer($0) }
        }
        return picker
    }

    @Test func keepsWantedFieldsOnlyAndTheLastOfARepeatedOne() {
        let picker = picked(
            ["UNIT_RESULT=signal", "MESSAGE=first", "UNIT=app.service", "OTHER=x", "MESSAGE=second", "NO_EQUALS",
             "EMPTY=", "\(String(repeating: "A", count: 70))=long"],
            ["UNIT", "MESSAGE", "EMPTY", "MISSING", "UNIT_RESULT"])
        #expect(picker.fields == ["UNIT": "app.service", "MESSAGE": "second", "EMPTY": "", "UNIT_RESULT": "signal"])
        #expect(picker.value(of: 3) == nil)
        #expect(picker.has(0, equalTo: "app.service"))
        #expect(!picker.has(0, equalTo: "app.servic"))
        #expect(!picker.has(3, equalTo: ""))
    }

    @Test func valuesKeepEqualsSignsNewlinesAndDecodeBadUTF8AsReplacement() {
        var picker = JournalFieldPicker(["MESSAGE", "BINARY"])
        picker.reset()
        Array("MESSAGE=a=b\nc".utf8).withUnsafeBytes { picker.offer($0) }
        (Array("BINARY=".utf8) + [0xFF, 0x41]).withUnsafeBytes { picker.offer($0) }
        #expect(picker.value(of: 0) == "a=b\nc")
        #expect(picker.value(of: 1) == "\u{FFFD}A")
        picker.reset()
        #expect(picker.fields.isEmpty)
    }
}

@Suite("Journal reader errors")
struct JournalReaderErrorTests {
    @Test func missingDirectorySaysWhich() {
        #expect {
            _ = try JournalReader(directory: "/nonexistent/journal")
        } throws: { error in
            (error as? SystemdError)?.target == "/nonexistent/journal"
        }
    }
}
