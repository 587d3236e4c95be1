import Testing
@testable import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// Calls sent together (`BusConnection.send`) against a private dbus-daemon: every reply comes back
/// to its own call, in order, errors and timeouts included.
@Suite("sd-bus pipelined calls")
struct BusPipelineTests {
    private static func request(_ member: String, _ arguments: [BusValue] = [], to destination: String = "org.relaunch.CheckInDemo1")
        -> BusMethodCallRequest
    {
        BusMethodCallRequest(destination: destination, path: "/org/relaunch/CheckInDemo1",
                             interface: "org.relaunch.CheckInDemo1", member: member, arguments: arguments)
    }

    @Test("replies, error replies and an unknown destination come back to their own calls, in order")
    func repliesInOrder() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let server = try BusConnection(address: bus.address)
        let taps = Locked<[String]>([])
        let object = try server.export(.checkInDemo1, handler: BusTests.demoHandler(taps))
        try server.requestName("org.relaunch.CheckInDemo1")
        try server.startLoopThread()
        defer { server.stop() }
        _ = object

        let client = try BusConnection(address: bus.address)
        let pending = client.send([
            Self.request("Screen"), Self.request("Tap", ["nope"]), Self.request("Ready"),
            Self.request("Screen", to: "org.relaunch.Nobody1"), Self.request("Tap", ["scan"]),
        ], timeout: .seconds(5))
        let results = pending.wait()
        #expect(results.count == 5)
        #expect(try results[0].get().string(at: 0) == "┌ Venues ┐\nline two")
        #expect(throws: BusError.self) { try results[1].get() }
        if case .failure(let error) = results[1] {
            #expect(error.name == BusError.invalidArgsName)
        }
        #expect(try results[2].get().structure(at: 0).bool(at: 0))
        if case .failure(let error) = results[3] {
            #expect(error.name == "org.freedesktop.DBus.Error.ServiceUnknown")
        } else {
            Issue.record("a call to a name nobody owns succeeded")
        }
        #expect(try results[4].get().isEmpty)
        #expect(taps.value == ["scan"], "only the valid Tap reached the app")
    }

    @Test("a call nobody answers ends in its timeout; the others still get their replies")
    func timeout() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        // Owns the name but never runs its loop: calls to it are never answered.
        let silent = try BusConnection(address: bus.address)
        try silent.requestName("org.relaunch.Silent1")
        let server = try BusConnection(address: bus.address)
        let object = try server.export(.checkInDemo1, handler: BusTests.demoHandler(Locked([])))
        try server.requestName("org.relaunch.CheckInDemo1")
        try server.startLoopThread()
        defer { server.stop() }
        _ = object

        let client = try BusConnection(address: bus.address)
        let started = ContinuousClock.now
        let results = client.send([
            Self.request("Screen", to: "org.relaunch.Silent1"), Self.request("Ready"),
        ], timeout: .milliseconds(300)).wait()
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(250) && waited < .seconds(5))
        if case .failure(let error) = results[0] {
            #expect(error.errno == ETIMEDOUT, "got \(error)")
        } else {
            Issue.record("an unanswered call succeeded")
        }
        #expect(try results[1].get().structure(at: 0).bool(at: 0))
    }
}
