import RelaunchTestSupport
import Testing
@testable import Systemd

#if canImport(Glibc)
import Glibc
#endif

@Suite("Journal entries sent without waiting for journald")
struct JournalDatagramTests {
    @Test("fields go out in journald's native protocol; a value with a newline carries its length")
    func encoding() {
        let bytes = JournalDatagram.encode([JournalField("MESSAGE", "one\ntwo"), JournalField("PRIORITY", "5")])
        var want = Array("MESSAGE\n".utf8) + [7, 0, 0, 0, 0, 0, 0, 0] + Array("one\ntwo\n".utf8)
        want += Array("PRIORITY=5\n".utf8)
        #expect(bytes == want)
    }

    @Test("a reader that does not read: sends report busy once its queue is full, and never block")
    func busyReader() throws {
        let directory = try TemporaryDirectory(prefix: "journal-socket")
        let path = directory.path + "/socket"
        let receiver = try DatagramReceiver(path: path)
        let fd = JournalDatagram.openSocket()
        defer { close(fd) }
        let entry = JournalDatagram.encode([JournalField("MESSAGE", "hello")])
        #expect(JournalDatagram.send(entry, on: fd, to: path) == .sent)
        #expect(try receiver.receive().text == "MESSAGE=hello\n")
        // The queue holds net.unix.max_dgram_qlen entries (and the sender's buffer some more): past
        // that a blocking send would wait for the reader; this one says busy. Bounded by the buffer.
        var outcomes: [JournalDatagram.Outcome] = []
        for _ in 0..<100_000 {
            let outcome = JournalDatagram.send(entry, on: fd, to: path)
            outcomes.append(outcome)
            if outcome != .sent { break }
        }
        #expect(outcomes.last == .busy, "after \(outcomes.count) sends the last said \(String(describing: outcomes.last))")
    }

    @Test("no one listening, or nothing at the path: unreachable")
    func unreachable() throws {
        let directory = try TemporaryDirectory(prefix: "journal-socket")
        let fd = JournalDatagram.openSocket()
        defer { close(fd) }
        #expect(JournalDatagram.send([1], on: fd, to: directory.path + "/missing") == .unreachable)
        #expect(JournalDatagram.send([1], on: -1, to: directory.path + "/missing") == .unreachable)
    }

    @Test("a burst larger than journald's queue waits for room instead of losing entries")
    func burstWaitsForRoom() throws {
        let directory = try TemporaryDirectory(prefix: "journal-socket")
        let path = directory.path + "/socket"
        let receiver = try DatagramReceiver(path: path)
        // Patience well past any scheduling delay of the reader below: the test is about waiting, not speed.
        let sink = JournalSink(socketPath: path, patience: .seconds(10))
        let count = 60
        // The burst goes out from a thread of its own (not the cooperative pool, whose threads this
        // test's blocking reads and other tests may hold); past the queue's length each entry waits.
        try spawnDetachedThread {
            for index in 0..<count {
                sink.write([JournalField("MESSAGE", "entry \(index)")], fallbackLine: "entry \(index)")
            }
        }
        var received: [String] = []
        for _ in 0..<count {
            received.append(try receiver.receive().text)
        }
        #expect(received == (0..<count).map { "MESSAGE=entry \($0)\n" })
    }
}
