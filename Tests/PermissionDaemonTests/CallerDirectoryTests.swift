import Foundation
import PermissionDaemon
import PermissionStore
import Systemd
import Testing

/// Who a caller is comes from the bus daemon's record of its connection, on a dbus-daemon of the
/// test's own (systemd's part, the unit, is checked in the sandbox: tests/sandbox/checks).
@Suite("The caller lookup: uid from the bus daemon's credentials, an unknown name refused")
struct CallerDirectoryTests {
    @Test("A unique name resolves to the uid the bus daemon recorded for that connection")
    func uniqueNameResolves() async throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let address = bus.address
        let caller = try BusConnection(address: address)
        try caller.startLoopThread()
        defer { caller.stop() }
        let name = try #require(caller.uniqueName)
        let link = BusLink(open: { () throws(SystemdError) in try BusConnection(address: address) })
        defer { link.close() }
        let callers = CallerDirectory(link: link)

        let identity = try await callers.identity(of: name)
        #expect(identity.uid == getuid())
        #expect(identity.busName == name)
        #expect(identity.unit == nil, "root's unit is not asked for")
        #expect(callers.cached(name) == identity, "a known name is remembered")
    }

    @Test("Every caller resolved is remembered, not only the last (up to the directory's capacity)")
    func severalRemembered() async throws {
        try await Self.onTestBus { address, callers, _ in
            var names: [String] = []
            for _ in 0..<3 {
                let caller = try BusConnection(address: address)
                try caller.startLoopThread()
                defer { caller.stop() }
                let name = try #require(caller.uniqueName)
                #expect(try await callers.identity(of: name).uid == getuid())
                names.append(name)
            }
            #expect(names.map { callers.cached($0) != nil } == [true, true, true])
        }
    }

    /// A caller directory over a dbus-daemon of the test's own: `body` gets the bus's address, the
    /// directory and the link it asks over.
    static func onTestBus(_ body: (String, CallerDirectory, BusLink) async throws -> Void) async throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let address = bus.address
        let link = BusLink(open: { () throws(SystemdError) in try BusConnection(address: address) })
        defer { link.close() }
        try await body(address, CallerDirectory(link: link), link)
    }

    @Test("A name the bus does not know is not looked up, not remembered, and nobody may not change permissions")
    func unknownNameRefused() async throws {
        try await Self.onTestBus { _, callers, link in
            await #expect(throws: BusError.self, "the bus could not tell who :1.4242 is") {
                try await callers.identity(of: ":1.4242")
            }
            #expect(callers.cached(":1.4242") == nil, "a failed lookup is asked again next time, never remembered")
            let identity = try await callers.identity(of: nil)
            #expect(identity.uid == UInt32.max, "a call without a sender is nobody")
            // No polkit on this bus: the authorizer cannot be told yes.
            let authorizer = PolkitAuthorizer(authority: PolkitAuthority(link: link))
            do throws(PermissionServiceError) {
                try await authorizer.authorizeChange(by: identity)
                Issue.record("an unknown caller was allowed to change permissions")
            } catch {
                #expect(error.dbusName == PermissionServiceError.accessDeniedName)
            }
        }
    }
}
