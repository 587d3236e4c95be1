import Synchronization
import Testing
@testable import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// A served object whose `Hang` never answers (until the test says so) and whose `Echo` answers at
/// once, on a private dbus-daemon: the calls that never come back must hold up nobody but their
/// own callers, and must be released when they end.
@Suite("a peer that never answers")
struct BusSlowPeerTests {
    static let slow1 = BusInterface(
        name: "org.relaunch.Slow1",
        methods: [
            BusInterface.Method("Hang", returns: [BusInterface.Argument("text", "s")]),
            BusInterface.Method("Echo", [BusInterface.Argument("text", "s")], returns: [BusInterface.Argument("text", "s")]),
            BusInterface.Method("Refuse"),
        ])
    static let name = "org.relaunch.Slow1"
    static let refusedName = "org.relaunch.Slow1.Error.Refused"

    /// The server, with the `Hang` calls it holds unanswered, and a client whose loop runs.
    /// (Unchecked: `bus` is started and stopped only by the test's own flow; the rest is Sendable.)
    struct Peers: @unchecked Sendable {
        let bus: PrivateBus
        let server: BusConnection
        let object: BusObject
        let hanging: Locked<[BusPendingReply]>
        let client: BusConnection

        init() throws {
            bus = try PrivateBus()
            server = try BusConnection(address: bus.address)
            let hanging = Locked<[BusPendingReply]>([])
            self.hanging = hanging
            object = try server.export(BusSlowPeerTests.slow1, at: "/org/relaunch/Slow1") {
                (call, pending) throws(BusError) -> BusReply? in
                switch call.member {
                case "Hang":
                    hanging.withLock { $0.append(pending) }
                    return nil
                case "Echo": return .string(try call.arguments.string(at: 0))
                default: throw .failed(name: BusSlowPeerTests.refusedName, "Refuse always refuses")
                }
            }
            try server.requestName(BusSlowPeerTests.name)
            try server.startLoopThread()
            client = try BusConnection(address: bus.address)
            try client.startLoopThread()
        }

        func stop() {
            client.stop()
            server.stop()
            bus.stop()
        }

        /// Calls `member` on the served object through the client's loop.
        func call(_ member: String, _ arguments: [BusValue] = [], timeout: Duration = .seconds(60))
            async throws(BusError) -> BusValues
        {
            try await client.callAsync(
                destination: BusSlowPeerTests.name, path: "/org/relaunch/Slow1", interface: BusSlowPeerTests.name,
                member: member, arguments: arguments, timeout: timeout)
        }

        /// Calls `Hang` in a task of its own and returns once the server holds it unanswered.
        func hang() async throws -> HungCall {
            let ended = Locked(false)
            let task = Task { () async throws(BusError) -> BusValues in
                defer { ended.withLock { $0 = true } }
                return try await call("Hang")
            }
            let count = hanging.withLock { $0.count } + 1
            // A call that came back instead of hanging (refused, no such name) says why at once,
            // rather than as a wait that timed out.
            try await waitUntil("the server holding \(count) Hang call(s)") {
                hanging.withLock { $0.count } == count || ended.withLock { $0 }
            }
            if ended.withLock({ $0 }) {
                Issue.record("the Hang call came back instead of hanging: \(String(describing: await task.result))")
            }
            return HungCall(task: task, ended: ended)
        }
    }

    /// A `Hang` call on its way (``Peers/hang()``); `ended` turns true when it came back.
    struct HungCall {
        let task: Task<BusValues, any Error>
        let ended: Locked<Bool>
    }

    @Test("while a call waits for a reply that never comes, a later call on the same connection is answered")
    func laterCallIsAnswered() async throws {
        let peers = try Peers()
        defer { peers.stop() }
        let hung = try await peers.hang()

        let echo = try await peers.call("Echo", [.string("second")])
        #expect(try echo.string(at: 0) == "second")
        let endedFirst = hung.ended.value
        #expect(!endedFirst, "the second call was answered only after the first one ended")
        hung.task.cancel()
        _ = await hung.task.result
    }

    @Test("a synchronous call on a connection whose loop runs is not held up by a call that never answers")
    func synchronousCallIsAnswered() async throws {
        let peers = try Peers()
        defer { peers.stop() }
        let hung = try await peers.hang()

        let echo = try peers.client.call(
            destination: Self.name, path: "/org/relaunch/Slow1", interface: Self.name, member: "Echo",
            arguments: [.string("sync")], timeout: .seconds(60))
        #expect(try echo.string(at: 0) == "sync")
        let endedFirst = hung.ended.value
        #expect(!endedFirst, "the synchronous call was answered only after the hung one ended")
        hung.task.cancel()
        _ = await hung.task.result
    }
}
