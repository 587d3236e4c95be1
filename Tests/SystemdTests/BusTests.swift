import RelaunchTestSupport
import Synchronization
import Testing
@testable import Systemd

#if canImport(Glibc)
import Glibc
#endif

@Suite("sd-bus against a private dbus-daemon")
struct BusTests {
    static let elements = ["tab:venues", "tab:check-in", "check-in", "scan", "open-settings", "done"]

    /// A CheckInDemo1 handler with the real access rules, recording who tapped what.
    static func demoHandler(_ taps: Locked<[String]>) -> BusMethodHandler {
        { (call: BusMethodCall) throws(BusError) -> BusReply in
            switch call.member {
            case "Tap":
                try call.requireRoot()
                let element = try call.arguments.string(at: 0)
                guard elements.contains(element) || element.hasPrefix("venue:") else {
                    throw .invalidArgs("Unknown element '\(element)'. Accepted: \(elements.joined(separator: ", ")), venue:ID.")
                }
                taps.withLock { $0.append(element) }
                return .empty
            case "Quit":
                _ = try call.arguments.bool(at: 0)
                return .empty
            case "Screen":
                return .string("┌ Venues ┐\nline two")
            case "Ready":
                return BusReply(.structure([.bool(true), .string("0123456789abcdef0123456789abcdef")]))
            case "State":
                return BusReply(.bool(true))  // wrong on purpose: the vtable says "s"
            default:
                throw .failed(name: "org.relaunch.CheckInDemo1.Error.Failed", "\(call.member) is not implemented")
            }
        }
    }

    @Test func exportsCallsAndErrors() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let server = try BusConnection(address: bus.address)
        let taps = Locked<[String]>([])
        let object = try server.export(.checkInDemo1, handler: Self.demoHandler(taps))
        try server.requestName("org.relaunch.CheckInDemo1")
        try server.startLoopThread()
        defer { server.stop() }

        let client = try BusConnection(address: bus.address)
        #expect(client.uniqueName?.hasPrefix(":") == true)
        func call(_ member: String, _ arguments: [BusValue] = []) throws(BusError) -> BusValues {
            try client.call(destination: "org.relaunch.CheckInDemo1", path: "/org/relaunch/CheckInDemo1",
                            interface: "org.relaunch.CheckInDemo1", member: member, arguments: arguments)
        }

        #expect(try call("Screen").string(at: 0) == "┌ Venues ┐\nline two")
        let ready = try call("Ready")
        #expect(ready.signature == "(bs)")
        #expect(try ready.structure(at: 0).bool(at: 0))
        #expect(try ready.structure(at: 0).string(at: 1) == "0123456789abcdef0123456789abcdef")
        #expect(try call("Tap", ["scan"]).isEmpty)
        #expect(try call("Quit", [true]).isEmpty)
        #expect(taps.value == ["scan"])

        let invalid = #expect(throws: BusError.self) { try call("Tap", ["nope"]) }
        #expect(invalid?.name == BusError.invalidArgsName)
        #expect(invalid?.message.contains("Accepted: tab:venues") == true)

        let wrongType = #expect(throws: BusError.self) { try call("Tap", [.uint32(1)]) }
        #expect(wrongType?.name == BusError.invalidArgsName)

        let mismatch = #expect(throws: BusError.self) { try call("State") }
        #expect(mismatch?.name == BusError.failedName)
        #expect(mismatch?.message.contains("expected 's'") == true)

        let custom = #expect(throws: BusError.self) { try call("TestHook", ["hang"]) }
        #expect(custom?.name == "org.relaunch.CheckInDemo1.Error.Failed")

        let unknown = #expect(throws: BusError.self) { try call("Fly") }
        #expect(unknown?.name == BusError.unknownMethodName)

        let absent = #expect(throws: BusError.self) {
            try client.call(destination: "org.relaunch.Nobody1", path: "/", interface: "org.relaunch.Nobody1", member: "X")
        }
        #expect(absent?.isUnreachable == true)

        object.cancel()
        let gone = #expect(throws: BusError.self) { try call("Screen") }
        #expect(gone?.name == BusError.unknownObjectName || gone?.name == BusError.unknownMethodName)

    }

    @Test func sendersUIDComesFromTheBus() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let server = try BusConnection(address: bus.address)
        let taps = Locked<[String]>([])
        let uids = Locked<[UInt32?]>([])
        let handler = Self.demoHandler(taps)
        let object = try server.export(.checkInDemo1) { (call: BusMethodCall) throws(BusError) -> BusReply in
            uids.withLock { $0.append(call.senderUID) }
            return try handler(call)
        }
        try server.requestName("org.relaunch.CheckInDemo1")
        try server.startLoopThread()
        defer { server.stop() }

        let output = bus.directory.path + "/busctl.out"
        let status = run(["/bin/sh", "-c", """
            exec /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups \
              /usr/bin/busctl --address=\(bus.address) call org.relaunch.CheckInDemo1 \
              /org/relaunch/CheckInDemo1 org.relaunch.CheckInDemo1 Tap s scan >\(output) 2>&1
            """])
        let text = try readFile(output)
        #expect(status != 0)
        #expect(text.contains("Access denied"), "busctl said: \(text)")  // busctl prints the errno text only
        #expect(uids.value == [65534])
        #expect(taps.value.isEmpty)

        // Anyone may read the screen.
        let screen = run(["/bin/sh", "-c", """
            exec /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups \
              /usr/bin/busctl --address=\(bus.address) call org.relaunch.CheckInDemo1 \
              /org/relaunch/CheckInDemo1 org.relaunch.CheckInDemo1 Screen >\(output) 2>&1
            """])
        let screenText = try readFile(output)
        #expect(screen == 0, "busctl said: \(screenText)")

        // Root passes.
        let client = try BusConnection(address: bus.address)
        try client.call(destination: "org.relaunch.CheckInDemo1", path: "/org/relaunch/CheckInDemo1",
                        interface: "org.relaunch.CheckInDemo1", member: "Tap", arguments: ["done"])
        #expect(uids.value.last == 0)
        #expect(taps.value == ["done"])
        object.cancel()
    }

    @Test func changedSignalArrives() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let server = try BusConnection(address: bus.address)
        let object = try server.export(.permissions1) { (call: BusMethodCall) throws(BusError) -> BusReply in
            switch call.member {
            case "List": return BusReply(.stringDictionary(["camera": "denied", "photos": "allowed"]))
            case "ListApps": return BusReply(.stringArray(["checkin-demo"]))
            case "LastKill": return BusReply(.structure(["", "", "", "", .uint64(0)]))
            default: throw .invalidArgs("not in this test")
            }
        }
        try server.requestName("org.relaunch.Permissions1")
        // The async entry point, as a ServiceGroup would use it.
        let serverLoop = Task { try await server.run() }
        defer { serverLoop.cancel() }
        try await eventually(within: stateWaitLimit, "the server loop runs") { server.isRunning }

        let client = try BusConnection(address: bus.address)
        let (signals, arrived) = AsyncStream.makeStream(of: BusSignal.self)
        // arg0: only checkin-demo's changes are delivered (the other app's, emitted first, never arrive).
        let subscription = try client.subscribe(
            BusMatchRule(interface: "org.relaunch.Permissions1", member: "Changed", arg0: "checkin-demo")
        ) { signal in arrived.yield(signal) }
        try client.startLoopThread()
        defer { client.stop() }

        let permissions = { (member: String, arguments: [BusValue]) throws(BusError) -> BusValues in
            try client.call(destination: "org.relaunch.Permissions1", path: "/org/relaunch/Permissions1",
                            interface: "org.relaunch.Permissions1", member: member, arguments: arguments)
        }
        #expect(try permissions("List", ["checkin-demo"]).stringDictionary(at: 0) == ["camera": "denied", "photos": "allowed"])
        #expect(try permissions("ListApps", []).stringArray(at: 0) == ["checkin-demo"])
        #expect(try permissions("LastKill", ["checkin-demo"]).signature == "(sssst)")

        try server.emitSignal(path: "/org/relaunch/Permissions1", interface: BusInterface.permissions1.name,
                              member: "Changed", arguments: ["other-app", "camera", "denied", "allowed", true])
        try server.emitSignal(path: "/org/relaunch/Permissions1", interface: BusInterface.permissions1.name,
                              member: "Changed", arguments: ["checkin-demo", "camera", "denied", "allowed", true])
        let signal = try #require(await first(of: signals, within: stateWaitLimit), "no Changed signal within \(stateWaitLimit)")
        #expect(signal.member == "Changed")
        #expect(signal.path == "/org/relaunch/Permissions1")
        #expect(signal.arguments.signature == "ssssb")
        #expect(try signal.arguments.string(at: 0) == "checkin-demo")
        #expect(try signal.arguments.bool(at: 4))
        subscription.cancel()
        object.cancel()
        serverLoop.cancel()
        try await serverLoop.value
        #expect(!server.isRunning)
    }

    /// A rule added without waiting for AddMatch's answer is in place once a later call of the same
    /// connection is answered (the bus daemon handles a connection's messages in order): a signal sent
    /// after that answer arrives, and one the rule does not match (another arg0) does not.
    @Test func aRuleAddedWithoutWaitingIsInPlaceForTheNextCall() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let emitter = try BusConnection(address: bus.address)
        let listener = try BusConnection(address: bus.address)
        let heard = Mutex<[String]>([])
        let subscription = try listener.subscribeWithoutWaiting(
            BusMatchRule(interface: "org.relaunch.Permissions1", member: "KillMainProcess", arg0: "checkin-demo.service")
        ) { signal in heard.withLock { $0.append((try? signal.arguments.string(at: 0)) ?? "?") } }
        defer { subscription.cancel() }
        _ = try listener.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetId", timeout: .seconds(2))
        for unit in ["banca-demo.service", "checkin-demo.service"] {
            try emitter.emitSignal(path: "/org/relaunch/Permissions1", interface: BusInterface.permissions1.name,
                                   member: "KillMainProcess", arguments: [.string(unit), .uint32(7)])
        }
        try emitter.flush()
        let deadline = ContinuousClock.now + stateWaitLimit
        while heard.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline {
            try listener.processPending(waitingUpTo: .milliseconds(100))
        }
        #expect(heard.withLock { $0 } == ["checkin-demo.service"])
    }

    @Test func runReturnsWhenCancelledBeforeItStarts() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let connection = try BusConnection(address: bus.address)
        let loop = Task { try await connection.run() }
        loop.cancel()
        try await loop.value
    }

    @Test("handlers per member: each member reaches its own, and handlers out of step with the description are refused")
    func handlersPerMember() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let server = try BusConnection(address: bus.address)
        let answer = { (text: String) -> BusDeferringMethodHandler in { (_, _) throws(BusError) -> BusReply? in .string(text) } }
        let done: BusDeferringMethodHandler = { (_, _) throws(BusError) -> BusReply? in .empty }
        #expect(throws: BusError.self) {
            _ = try server.export(.permissions1, handlers: ["Get": answer("x")])  // the others are missing
        }
        #expect(throws: BusError.self) {
            _ = try server.export(.checkInDemo1, handlers: [
                "Tap": done, "Type": done, "Background": done, "Foreground": done, "Quit": done,
                "Screen": answer("screen"), "State": answer("{}"), "TestHook": done, "Nope": done,
                "Ready": { (_, _) throws(BusError) -> BusReply? in BusReply(.structure([.bool(true), .string("")])) },
            ])  // Nope is no method of it
        }
        let object = try server.export(.checkInDemo1, handlers: [
            "Tap": done, "Type": done, "Background": done, "Foreground": done, "Quit": done,
            "Screen": answer("the screen"), "State": answer("the state"), "TestHook": done,
            "Ready": { (_, _) throws(BusError) -> BusReply? in BusReply(.structure([.bool(true), .string("")])) },
        ])
        defer { object.cancel() }
        try server.requestName("org.relaunch.CheckInDemo1")
        try server.startLoopThread()
        defer { server.stop() }
        let client = try BusConnection(address: bus.address)
        let call = { (member: String) throws(BusError) -> String in
            try client.call(
                destination: "org.relaunch.CheckInDemo1", path: "/org/relaunch/CheckInDemo1",
                interface: "org.relaunch.CheckInDemo1", member: member, timeout: .seconds(5)
            ).string(at: 0)
        }
        #expect(try call("Screen") == "the screen")
        #expect(try call("State") == "the state")
    }

    @Test("an exported description introspects with its argument names, signals and signatures")
    func introspectionShowsTheDescription() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let server = try BusConnection(address: bus.address)
        let object = try server.export(.permissions1) { (call: BusMethodCall) throws(BusError) -> BusReply in
            throw .invalidArgs("not in this test")
        }
        defer { object.cancel() }
        try server.requestName("org.relaunch.Permissions1")
        try server.startLoopThread()
        defer { server.stop() }
        let client = try BusConnection(address: bus.address)
        let xml = try client.call(
            destination: "org.relaunch.Permissions1", path: "/org/relaunch/Permissions1",
            interface: "org.freedesktop.DBus.Introspectable", member: "Introspect", timeout: .seconds(5)
        ).string(at: 0)
        #expect(xml.contains(#"<interface name="org.relaunch.Permissions1">"#))
        #expect(xml.contains(#"<method name="Set">"#))
        #expect(xml.contains(#"<arg type="s" name="permission" direction="in"/>"#))
        #expect(xml.contains(#"<arg type="(sssst)" name="kill" direction="out"/>"#))
        #expect(xml.contains(#"<signal name="Changed">"#))
        #expect(xml.contains(#"<arg type="b" name="killed"/>"#))
        // A method the description lacks is refused by sd-bus itself.
        #expect(throws: BusError.self) {
            try client.call(
                destination: "org.relaunch.Permissions1", path: "/org/relaunch/Permissions1",
                interface: "org.relaunch.Permissions1", member: "Nope", timeout: .seconds(5))
        }
    }

    @Test("a match rule's text: the parts given, in the bus daemon's syntax, arg0 last")
    func matchRuleText() {
        #expect(BusMatchRule(interface: "org.relaunch.Permissions1", member: "Changed").description
            == "type='signal',interface='org.relaunch.Permissions1',member='Changed'")
        #expect(BusMatchRule(sender: "org.freedesktop.DBus", member: "NameOwnerChanged", arg0: "org.relaunch.Permissions1").description
            == "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.relaunch.Permissions1'")
    }

    @Test func valuesHaveSignatures() {
        #expect(BusValue.stringDictionary(["a": "b"]).signature == "a{ss}")
        #expect(BusValue.stringArray([]).signature == "as")
        #expect(BusValue.structure([true, "x"]).signature == "(bs)")
        #expect(BusValues(["a", "b", "c", "d", true]).signature == "ssssb")
        #expect(SystemdManager.hex([0x0c, 0x3e, 0xff]) == "0c3eff")
    }
}

func readFile(_ path: String) throws -> String {
    let fd = open(path, O_RDONLY)
    try #require(fd >= 0, "open \(path): errno \(errno)")
    defer { close(fd) }
    return String(decoding: try SealedMemoryFile.readAll(from: fd), as: UTF8.self)
}

/// The bound of a wait for a state or an event in these tests: it ends as soon as the state holds,
/// so the bound only has to be one that no machine's scheduling reaches (a loaded 2-core machine
/// once kept a task from starting for over 5 s while other tests held both pool threads).
let stateWaitLimit: Duration = .seconds(60)

/// Polls `condition` until it holds; fails the test after `limit` (never waits longer).
func eventually(
    within limit: Duration, _ what: String, _ condition: () -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        try #require(ContinuousClock.now < deadline, "timed out after \(limit) waiting until \(what)")
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// The first element of `stream`, or nil if none arrives within `limit`.
func first<Element: Sendable>(of stream: AsyncStream<Element>, within limit: Duration) async -> Element? {
    await withTaskGroup(of: Element?.self) { group in
        group.addTask {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        let result = await group.next() ?? nil
        group.cancelAll()
        return result
    }
}
