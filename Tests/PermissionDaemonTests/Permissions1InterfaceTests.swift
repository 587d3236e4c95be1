import Foundation
import PermissionDaemon
import PermissionStore
import RelaunchBus
import RelaunchContract
import Systemd
import Testing

/// org.relaunch.Permissions1 as a client sees it on the bus.
@Suite("org.relaunch.Permissions1 on the wire")
struct Permissions1InterfaceTests {
    /// What `busctl introspect` reads from an object exporting ``BusInterface/permissions1``.
    static func introspection() throws -> String {
        let bus = try TestBus()
        defer { bus.stop() }
        let server = try BusConnection(address: bus.address)
        let object = try server.export(.permissions1, at: BusNames.Permissions.object) {
            (call, _) throws(BusError) -> BusReply? in
            throw .invalidArgs("not in this test")
        }
        defer { object.cancel() }
        try server.requestName(BusNames.Permissions.service)
        try server.startLoopThread()
        defer { server.stop() }
        let client = try BusConnection(address: bus.address)
        return try client.call(
            destination: BusNames.Permissions.service, path: BusNames.Permissions.object,
            interface: "org.freedesktop.DBus.Introspectable", member: "Introspect", timeout: .seconds(5)
        ).string(at: 0)
    }

    /// The interface as `busctl introspect` showed it before its table (Permissions1Method) existed,
    /// captured from permissiond's description then (Fixtures/Permissions1.introspect.xml): the table
    /// must build exactly this, or clients, the man page and the sandbox checks notice.
    static func asPublished() throws -> String {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Permissions1.introspect.xml")
        return String(decoding: try Data(contentsOf: file), as: UTF8.self)
    }

    /// The `<interface>` element of `xml` named `name`, as sd-bus wrote it.
    static func element(_ name: String, in xml: String) throws -> Substring {
        let start = try #require(xml.range(of: " <interface name=\"\(name)\">"), "\(name) is in \(xml)")
        let end = try #require(xml.range(of: " </interface>", range: start.upperBound..<xml.endIndex))
        return xml[start.lowerBound..<end.upperBound]
    }

    @Test("the introspection of the description built from the table is what permissiond published, byte for byte")
    func permissions1Golden() throws {
        #expect(try Self.element(BusNames.Permissions.interface, in: Self.introspection()) + "\n" == Self.asPublished())
        for method in Permissions1Method.allCases {
            #expect(Permissions1Method(member: method.member) == method, "\(method.member) reads back as its row")
        }
    }

    @Test("the dispatch makes every row but TestHook a request of the store, which names its row back")
    func dispatch() throws {
        for method in Permissions1Method.allCases {
            let arguments = BusValues(method.busMethod.inputs.map { _ in BusValue.string("app-0") })
            let request = try PermissionRequest(method, arguments)
            #expect(request?.method == (method == .testHook ? nil : method), "\(method.member)")
        }
    }
}
