import Synchronization
import Testing
@testable import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// `BusConnection.callAsync` against a private dbus-daemon: a call is completed by the connection's
/// loop, so a peer that never answers holds up nobody but its own caller.
@Suite("sd-bus asynchronous calls")
struct BusAsyncCallTests {
    private static func ready(_ connection: BusConnection, to destination: String = "org.relaunch.CheckInDemo1")
        async throws(BusError) -> BusValues
    {
        try await connection.callAsync(
            destination: destination, path: "/org/relaunch/CheckInDemo1", interface: "org.relaunch.CheckInDemo1",
            member: "Ready", timeout: .seconds(30))
    }

    /// A server answering checkInDemo1, and a name that is owned by a connection that never answers.
    struct Peers {
        let bus: PrivateBus
        let server: BusConnection
        let silent: BusConnection
        let object: BusObject

        init(silentName: String = "org.relaunch.Silent1") throws {
            bus = try PrivateBus()
            silent = try BusConnection(address: bus.address)
            try silent.requestName(silentName)
            server = try BusConnection(address: bus.address)
            object = try server.export(.checkInDemo1, handler: BusTests.demoHandler(Locked([])))
            try server.requestName("org.relaunch.CheckInDemo1")
            try server.startLoopThread()
        }

        func stop() {
            server.stop()
            bus.stop()
        }
    }

    @Test("while a call to a peer that never answers waits, other calls on the same connection are answered")
    func silentPeerHoldsUpNobodyElse() async throws {
        let peers = try Peers()
        defer { peers.stop() }
        let client = try BusConnection(address: peers.bus.address)
        try client.startLoopThread()
        defer { client.stop() }

        let stuckEnded = Atomic<Bool>(false)
        let stuck = Task { () async throws(BusError) -> BusValues in
            defer { stuckEnded.store(true, ordering: .releasing) }
            return try await Self.ready(client, to: "org.relaunch.Silent1")
        }
        // Many round trips while the silent call is outstanding: each is answered by the server.
        for _ in 0..<20 {
            let reply = try await Self.ready(client)
            #expect(try reply.structure(at: 0).bool(at: 0))
        }
        // The loop still runs its other work too: a signal emitted now is delivered.
        let delivered = Atomic<Int>(0)
        let subscription = try client.subscribe(BusMatchRule(interface: "org.relaunch.Test1", member: "Ping")) { _ in
            delivered.add(1, ordering: .relaxed)
        }
        _ = subscription
        try peers.server.emitSignal(path: "/org/relaunch/Test1", interface: "org.relaunch.Test1", member: "Ping", arguments: [])
        try await waitUntil("the Ping signal delivered while a call is outstanding") { delivered.load(ordering: .relaxed) == 1 }
        let endedFirst = stuckEnded.load(ordering: .acquiring)
        #expect(!endedFirst, "the other calls were answered only after the silent one ended")
        stuck.cancel()
        peers.silent.stop()
    }

    @Test("a call that nobody answers ends with NoReply at its own timeout")
    func timeoutEndsTheCall() async throws {
        let peers = try Peers()
        defer { peers.stop() }
        let client = try BusConnection(address: peers.bus.address)
        try client.startLoopThread()
        defer { client.stop() }
        let error = await #expect(throws: BusError.self) {
            try await client.callAsync(
                destination: "org.relaunch.Silent1", path: "/", interface: "org.relaunch.Silent1", member: "Nothing",
                timeout: .milliseconds(100))
        }
        #expect(error?.name == BusError.noReplyName || error?.errno == ETIMEDOUT, "\(String(describing: error))")
    }

    @Test("error replies and unknown destinations come back as their errors")
    func errors() async throws {
        let peers = try Peers()
        defer { peers.stop() }
        let client = try BusConnection(address: peers.bus.address)
        try client.startLoopThread()
        defer { client.stop() }
        let invalid = await #expect(throws: BusError.self) {
            try await client.callAsync(
                destination: "org.relaunch.CheckInDemo1", path: "/org/relaunch/CheckInDemo1",
                interface: "org.relaunch.CheckInDemo1", member: "Tap", arguments: [.string("nope")], timeout: .seconds(30))
        }
        #expect(invalid?.name == BusError.invalidArgsName || invalid?.name == BusError.accessDeniedName)
        let unknown = await #expect(throws: BusError.self) { try await Self.ready(client, to: "org.relaunch.Nobody1") }
        #expect(unknown?.name == BusError.serviceUnknownName)
    }

    @Test("a call on a connection whose loop stops, or never ran, ends with Disconnected instead of waiting")
    func loopEndFailsWaitingCalls() async throws {
        let peers = try Peers()
        defer { peers.stop() }
        let idle = try BusConnection(address: peers.bus.address)
        let never = await #expect(throws: BusError.self) { try await Self.ready(idle) }
        #expect(never?.name == BusError.disconnectedName)

        let client = try BusConnection(address: peers.bus.address)
        try client.startLoopThread()
        let stuck = Task { () async throws(BusError) -> BusValues in try await Self.ready(client, to: "org.relaunch.Silent1") }
        try await waitUntil("the loop running") { client.isRunning }
        client.stop()
        let result = await stuck.result
        guard case .failure(let error) = result else {
            Issue.record("a call to a silent peer succeeded after the loop stopped")
            return
        }
        #expect((error as? BusError)?.name == BusError.disconnectedName, "\(error)")
    }
}

/// Waits for `condition`, checking every 5 ms, for at most 120 s; records what it waited for otherwise.
/// The bound only says how long a broken run takes to fail: the state comes within milliseconds on a
/// quiet machine, but the tasks that bring it wait for the two-thread cooperative pool, which the
/// suite's other tests (blocking calls among them) can hold for tens of seconds at a load of 9.
func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
    let bound = Duration.seconds(120)
    let deadline = ContinuousClock.now + bound
    while !condition() {
        if ContinuousClock.now > deadline {
            Issue.record("timed out after \(bound) waiting for \(what)")
            return
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// polkit that never answers (a prompt nobody answers): the check ends at its bound, saying why, and
/// other calls on the same link go on meanwhile.
@Suite("polkit checks")
struct PolkitAuthorityTests {
    @Test("an interactive check that polkit never answers ends at its bound with a message that says so")
    func unansweredPrompt() async throws {
        // polkit's name is owned by a connection that never runs its loop: nothing it is asked is answered.
        let peers = try BusAsyncCallTests.Peers(silentName: "org.freedesktop.PolicyKit1")
        defer { peers.stop() }
        let address = peers.bus.address
        let link = BusLink(open: { () throws(SystemdError) in try BusConnection(address: address) })
        defer { link.close() }
        let authority = PolkitAuthority(link: link, promptBound: .milliseconds(300))
        let check = Task { () async throws(BusError) -> PolkitAuthority.Answer in
            try await authority.check(action: "org.relaunch.permissions.set", busName: ":1.1", interactive: true)
        }
        // Meanwhile the same link answers everyone else.
        let ready = try await link.callAsync(
            destination: "org.relaunch.CheckInDemo1", path: "/org/relaunch/CheckInDemo1",
            interface: "org.relaunch.CheckInDemo1", member: "Ready", timeout: .seconds(30))
        #expect(try ready.structure(at: 0).bool(at: 0))
        guard case .failure(let error) = await check.result else {
            Issue.record("polkit that never answers authorized the caller")
            return
        }
        let busError = try #require(error as? BusError)
        #expect(busError.message.contains("polkit did not answer within"), "\(busError)")
        #expect(busError.message.contains("authentication prompt"), "\(busError)")
    }
}
