import InMemoryLogging
import Logging
import Testing
@testable import Systemd

#if canImport(Glibc)
import Glibc
#endif

@Suite("Journal log handler")
struct JournalLogHandlerTests {
    @Test func buildsFieldsInOrder() {
        let fields = JournalLogHandler.fields(
            level: .notice, message: "app launched",
            metadata: ["MESSAGE_ID": "0c3ece682843457296ab0da296a09171", "launch.outcome": "restored", "2x": "y"],
            file: "CheckIn/App.swift", function: "launch()", line: 42, identifier: "checkin-demo"
        )
        #expect(fields == [
            JournalField("MESSAGE", "app launched"),
            JournalField("PRIORITY", "5"),
            JournalField("CODE_FILE", "CheckIn/App.swift"),
            JournalField("CODE_LINE", "42"),
            JournalField("CODE_FUNC", "launch()"),
            JournalField("SYSLOG_IDENTIFIER", "checkin-demo"),
            JournalField("X2X", "y"),
            JournalField("MESSAGE_ID", "0c3ece682843457296ab0da296a09171"),
            JournalField("LAUNCH_OUTCOME", "restored"),
        ])
    }

    @Test func keepsNewlinesAndRenamesReservedKeys() {
        let fields = JournalLogHandler.fields(
            level: .error, message: "line one\nline two",
            metadata: ["message": "shadow", "screen": "a\nb\n", "": "dropped"],
            error: SystemdError(code: .noEntry, operation: "open", target: "/x"),
            file: "f", function: "g", line: 1, identifier: "id"
        )
        #expect(fields.first(named: "MESSAGE") == "line one\nline two")
        #expect(fields.first(named: "PRIORITY") == "3")
        #expect(fields.first(named: "METADATA_MESSAGE") == "shadow")
        #expect(fields.first(named: "SCREEN") == "a\nb\n")
        #expect(fields.first(named: "ERROR")?.hasPrefix("open on /x failed: ") == true)
        #expect(fields.count == 9)
        #expect(fields.allSatisfy { JournalFieldName.isValid($0.name) })
    }

    @Test(arguments: [(Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4),
                      (.error, 3), (.critical, 2)])
    func priorities(level: Logger.Level, priority: Int) {
        #expect(JournalLogHandler.priority(of: level) == priority)
    }

    @Test func fallsBackToTheGivenDescriptorAndMergesMetadata() throws {
        let pipe = try Pipe()
        let sink = JournalSink(useJournal: false, fallbackFD: pipe.writeEnd)
        var handler = JournalLogHandler(label: "test", identifier: "relaunch-test", sink: sink,
                                        metadataProvider: .init { ["FROM_PROVIDER": "p", "shared": "provider"] })
        handler.logLevel = .debug
        handler[metadataKey: "shared"] = "handler"
        handler[metadataKey: "only_handler"] = "h"
        let logger = Logger(label: "test") { _ in handler }

        logger.warning("hello", metadata: ["shared": "event"])

        let line = pipe.readAvailable()
        #expect(line == "relaunch-test[\(getpid())]: <4> hello FROM_PROVIDER=p ONLY_HANDLER=h SHARED=event\n")
    }

    @Test func usesTheFallbackExactlyWhenJournaldIsAbsent() throws {
        // useJournal is on, as in the executables: the entry goes to journald when its socket is there,
        // else (sd_journal_sendv would report success and lose it) to the fallback descriptor.
        let pipe = try Pipe()
        let sink = JournalSink(useJournal: true, fallbackFD: pipe.writeEnd)
        let logger = Logger(label: "test") { label in JournalLogHandler(label: label, identifier: "t", sink: sink) }
        logger.info("to stderr", metadata: [JournalLogHandler.messageIDKey: "7cff30b26abb44549eb0f7570b7c2ef9"])
        if JournalSink.isJournalReachable {
            #expect(pipe.readAvailable() == "", "journald took the entry; nothing goes to the fallback")
        } else {
            #expect(pipe.readAvailable() == "t[\(getpid())]: <6> to stderr MESSAGE_ID=7cff30b26abb44549eb0f7570b7c2ef9\n")
        }
    }

    @Test func multiplexesWithInMemoryLogging() throws {
        // The handler is a plain LogHandler: it composes with others, e.g. to capture entries in tests.
        let pipe = try Pipe()
        let memory = InMemoryLogHandler()
        let journal = JournalLogHandler(label: "x", identifier: "x", sink: JournalSink(useJournal: false, fallbackFD: pipe.writeEnd))
        let logger = Logger(label: "x") { _ in MultiplexLogHandler([journal, memory]) }
        logger.info("both", metadata: ["k": "v"])
        #expect(pipe.readAvailable() == "x[\(getpid())]: <6> both K=v\n", "the journal handler wrote its line")
        #expect(memory.entries.map(\.message.description) == ["both"])
        #expect(memory.entries.first?.metadata["k"] == "v")
    }
}
