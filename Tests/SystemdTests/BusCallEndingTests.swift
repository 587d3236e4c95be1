import Synchronization
import Testing
@testable import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// How a call completed by the loop ends: every way answers the caller once and releases the call's
/// sd-bus slot (``BusConnection/callSlotsHeld``), and none leaves a caller waiting.
@Suite("the ends of a call completed by the loop")
struct BusCallEndingTests {
    typealias Peers = BusSlowPeerTests.Peers

    private static func waitForRelease(_ connection: BusConnection) async throws {
        try await waitUntil(
            "every call's slot released (held: \(connection.callSlotsHeld), calls waiting: \(connection.callsInFlight))"
        ) { connection.callSlotsHeld == 0 && connection.callsInFlight == 0 }
    }

    @Test("cancelling the caller ends its call at once, releases it, and a late reply is dropped")
    func cancellation() async throws {
        let peers = try Peers()
        defer { peers.stop() }
        let hung = try await peers.hang().task
        #expect(peers.client.callSlotsHeld == 1)

        hung.cancel()
        guard case .failure(let error) = await hung.result else {
            Issue.record("a cancelled call that nobody answered succeeded")
            return
        }
        #expect((error as? BusError)?.isCancelled == true, "\(error)")
        try await Self.waitForRelease(peers.client)

        // The server answers now: sd-bus has forgotten the call and drops the reply.
        peers.hanging.withLock { $0.forEach { $0.send(.success(.string("late"))) } }
        let echo = try await peers.call("Echo", [.string("after")])
        #expect(try echo.string(at: 0) == "after")
        try await Self.waitForRelease(peers.client)
    }

    @Test("a task cancelled before it calls ends at once without sending anything")
    func cancelledBeforeSending() async throws {
        let peers = try Peers()
        defer { peers.stop() }
        let started = Task { () async throws(BusError) -> BusValues in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await peers.call("Hang")
        }
        guard case .failure(let error) = await started.result else {
            Issue.record("a call from a cancelled task succeeded")
            return
        }
        #expect((error as? BusError)?.isCancelled == true, "\(error)")
        try await Self.waitForRelease(peers.client)
        #expect(peers.hanging.withLock { $0.count } == 0, "the server received a call whose task was cancelled before it was sent")
    }

    @Test("a call that is not answered in time ends with NoReply and is released")
    func timeout() async throws {
        let peers = try Peers()
        defer { peers.stop() }
        let error = await #expect(throws: BusError.self) { try await peers.call("Hang", timeout: .milliseconds(200)) }
        #expect(error?.name == BusError.noReplyName, "\(String(describing: error))")
        try await Self.waitForRelease(peers.client)
    }

    @Test("an error reply comes back as the typed error the server sent, async and synchronous")
    func errorReply() async throws {
        let peers = try Peers()
        defer { peers.stop() }
        let refused = await #expect(throws: BusError.self) { try await peers.call("Refuse") }
        #expect(refused?.name == BusSlowPeerTests.refusedName)
        #expect(refused?.message == "Refuse always refuses")
        let synchronous = #expect(throws: BusError.self) {
            try peers.client.call(
                destination: BusSlowPeerTests.name, path: "/org/relaunch/Slow1", interface: BusSlowPeerTests.name,
                member: "Refuse")
        }
        #expect(synchronous == refused)
        let unknown = await #expect(throws: BusError.self) {
            try await peers.client.callAsync(
                destination: "org.relaunch.Nobody1", path: "/", interface: "org.relaunch.Nobody1", member: "X")
        }
        #expect(unknown?.name == BusError.serviceUnknownName)
        try await Self.waitForRelease(peers.client)
    }

    @Test("when the bus goes away mid-call the caller gets an error instead of waiting")
    func connectionClosed() async throws {
        let peers = try Peers()
        defer { peers.stop() }
        let hung = try await peers.hang().task
        peers.bus.stop()
        guard case .failure(let error) = await hung.result else {
            Issue.record("a call succeeded although the bus went away before anyone answered")
            return
        }
        let busError = try #require(error as? BusError)
        #expect(busError.isUnreachable, "\(busError)")
        try await Self.waitForRelease(peers.client)
    }

    @Test("many concurrent calls, async and synchronous, on one connection all get their own answers")
    func manyConcurrentCalls() async throws {
        let peers = try Peers()
        defer { peers.stop() }
        let hung = try await peers.hang().task
        // 100: dbus-daemon answers LimitsExceeded past 128 calls pending on one connection.
        let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<100 {
                group.addTask { (index, try await peers.call("Echo", [.string("call \(index)")]).string(at: 0)) }
            }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        #expect(answers.count == 100)
        #expect(answers.allSatisfy { $0.value == "call \($0.key)" })
        // Threads that are not async, calling at the same time, are answered by the same loop.
        let synchronous = Locked<[String]>([])
        let threadsDone = Atomic<Int>(0)
        for index in 0..<4 {
            try spawnDetachedThread {
                let text = try? peers.client.call(
                    destination: BusSlowPeerTests.name, path: "/org/relaunch/Slow1", interface: BusSlowPeerTests.name,
                    member: "Echo", arguments: [.string("thread \(index)")], timeout: .seconds(60)
                ).string(at: 0)
                synchronous.withLock { $0.append(text ?? "failed") }
                threadsDone.add(1, ordering: .releasing)
            }
        }
        try await waitUntil("4 threads answered (\(threadsDone.load(ordering: .acquiring)) so far)") {
            threadsDone.load(ordering: .acquiring) == 4
        }
        #expect(synchronous.withLock { $0.sorted() } == (0..<4).map { "thread \($0)" })
        hung.cancel()
        _ = await hung.result
        try await Self.waitForRelease(peers.client)
    }
}
