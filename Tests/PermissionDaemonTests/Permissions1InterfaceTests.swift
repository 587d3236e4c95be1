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
    /// captured from permissiond's description then: the table must build exactly this, or clients,
    /// the man page and the sandbox checks notice.
    static let asPublished = """
         <interface name="org.relaunch.Permissions1">
          <method name="Get">
           <arg type="s" name="app" direction="in"/>
           <arg type="s" name="permission" direction="in"/>
           <arg type="s" name="state" direction="out"/>
          </method>
          <method name="List">
           <arg type="s" name="app" direction="in"/>
           <arg type="a{ss}" name="states" direction="out"/>
          </method>
          <method name="ListApps">
           <arg type="as" name="apps" direction="out"/>
          </method>
          <method name="Set">
           <arg type="s" name="app" direction="in"/>
           <arg type="s" name="permission" direction="in"/>
           <arg type="s" name="state" direction="in"/>
          </method>
          <method name="Reset">
           <arg type="s" name="app" direction="in"/>
           <arg type="s" name="permission" direction="in"/>
          </method>
          <method name="LastKill">
           <arg type="s" name="app" direction="in"/>
           <arg type="(sssst)" name="kill" direction="out"/>
          </method>
          <method name="Lifecycle">
           <arg type="s" name="app" direction="in"/>
           <arg type="s" name="lifecycle" direction="in"/>
          </method>
          <method name="TestHook">
           <arg type="s" name="name" direction="in"/>
          </method>
          <signal name="Changed">
           <arg type="s" name="app"/>
           <arg type="s" name="permission"/>
           <arg type="s" name="old_state"/>
           <arg type="s" name="new_state"/>
           <arg type="b" name="killed"/>
          </signal>
         </interface>
        """

    /// The `<interface>` element of `xml` named `name`, as sd-bus wrote it.
    static func element(_ name: String, in xml: String) throws -> Substring {
        let start = try #require(xml.range(of: " <interface name=\"\(name)\">"), "\(name) is in \(xml)")
        let end = try #require(xml.range(of: " </interface>", range: start.upperBound..<xml.endIndex))
        return xml[start.lowerBound..<end.upperBound]
    }

    @Test("the introspection of the description built from the table is what permissiond published, byte for byte")
    func permissions1Golden() throws {
        #expect(try Self.element(BusNames.Permissions.interface, in: Self.introspection()) == Self.asPublished[...])
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
