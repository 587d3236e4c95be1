import InMemoryLogging
import Logging
import RelaunchBus
import RelaunchContract
@testable import RelaunchHost
import Systemd
import RelaunchTestSupport
import Testing

/// Which permission signals a hosted app believes: permissiond's `Changed` from the owner of its
/// name, `NameOwnerChanged` from the bus daemon; a forger is logged once.
@Suite("Following permissiond's signals")
struct PermissionFollowerTests {
    static let owner = ":1.7"

    static func changed(from sender: String?, app: String = "scene-test", _ permission: String = "camera",
                        to state: String = "allowed") -> BusSignal {
        BusSignal(
            sender: sender, path: BusNames.Permissions.object, interface: BusNames.Permissions.interface, member: "Changed",
            arguments: [.string(app), .string(permission), .string("not-determined"), .string(state), .bool(false)])
    }

    static func nameOwnerChanged(from sender: String?, name: String = BusNames.Permissions.service, to owner: String) -> BusSignal {
        BusSignal(
            sender: sender, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
            arguments: [.string(name), .string(""), .string(owner)])
    }

    /// The signal handlers of a host on `directory`, trusting `owner` as permissiond.
    static func signals(in directory: String, memory: InMemoryLogHandler, owner: String? = owner) -> PermissionFollower.Signals<SceneTestApp> {
        let logger = memoryLogger(memory)
        let trust = PermissionFollower.Trust()
        trust.setOwner(owner)
        return PermissionFollower.Signals(host: sceneTestHost(in: directory, logger: logger), trust: trust, logger: logger)
    }

    static func cameraUpdates(_ memory: InMemoryLogHandler) -> [String] {
        entries(containing: "camera permission is now", in: memory).map(\.message.description)
    }

    @Test("permissiond's Changed for this app's permission is applied")
    func changedFromOwner() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let memory = InMemoryLogHandler()
            let signals = Self.signals(in: directory, memory: memory)
            signals.changed(Self.changed(from: Self.owner))
            #expect(Self.cameraUpdates(memory) == ["camera permission is now allowed (was not-determined): permissiond said it changed"])
        }
    }

    @Test("a reading of all permissions sent before a Changed was applied does not overwrite that permission")
    func readingOlderThanAChanged() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let memory = InMemoryLogHandler()
            let signals = Self.signals(in: directory, memory: memory)
            let before = signals.heard.now  // a reading is sent
            #expect(signals.heard.noneOf(.camera, since: before))
            signals.changed(Self.changed(from: Self.owner))  // then permissiond's Changed is applied
            #expect(!signals.heard.noneOf(.camera, since: before), "the reading's camera is older than the Changed")
            #expect(signals.heard.noneOf(.photos, since: before), "no Changed of photos: the reading's photos stands")
            let after = signals.heard.now
            signals.changed(Self.changed(from: ":1.99"))  // a forgery is no newer state
            #expect(signals.heard.noneOf(.camera, since: after))
            signals.changed(Self.changed(from: Self.owner, app: "banca-demo"))  // nor another app's
            #expect(signals.heard.noneOf(.camera, since: after))
        }
    }

    @Test("a Changed about another app, or a permission this app does not have, changes nothing")
    func changedForOthers() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let memory = InMemoryLogHandler()
            let signals = Self.signals(in: directory, memory: memory)
            signals.changed(Self.changed(from: Self.owner, app: "banca-demo"))
            signals.changed(Self.changed(from: Self.owner, "microphone"))
            signals.changed(Self.changed(from: Self.owner, to: "sometimes"))
            #expect(memory.entries.filter { $0.metadata["PERMISSION"] != nil }.isEmpty)
        }
    }

    @Test("a Changed from anyone but permissiond's owner changes nothing and is logged once per sender")
    func forgedChanged() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let memory = InMemoryLogHandler()
            let signals = Self.signals(in: directory, memory: memory)
            for sender in [":1.99", ":1.99", nil, ":1.100", nil] {
                signals.changed(Self.changed(from: sender))
            }
            #expect(Self.cameraUpdates(memory).isEmpty)
            let warnings = entries(containing: "ignored a Changed signal", in: memory)
            #expect(warnings.map { $0.metadata["SIGNAL_SENDER"] } == [":1.99", "an unnamed sender", ":1.100"])
            #expect(warnings.allSatisfy { $0.level == .warning })
        }
    }

    @Test("with no owner known (permissiond down), every Changed is a forgery")
    func noOwnerNoTrust() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let memory = InMemoryLogHandler()
            let signals = Self.signals(in: directory, memory: memory, owner: nil)
            signals.changed(Self.changed(from: Self.owner))
            #expect(Self.cameraUpdates(memory).isEmpty)
        }
    }

    @Test("NameOwnerChanged from the bus daemon about permissiond's name moves the trust; from anyone else it does not")
    func ownerChanges() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let memory = InMemoryLogHandler()
            let signals = Self.signals(in: directory, memory: memory)
            #expect(!signals.nameOwnerChanged(Self.nameOwnerChanged(from: ":1.99", to: ":1.99")))
            #expect(!signals.nameOwnerChanged(Self.nameOwnerChanged(from: "org.freedesktop.DBus", name: "org.example.Other", to: ":1.99")))
            #expect(signals.trust.owner == Self.owner)

            #expect(signals.nameOwnerChanged(Self.nameOwnerChanged(from: "org.freedesktop.DBus", to: ":1.8")), "permissiond is back")
            #expect(signals.trust.owner == ":1.8")
            signals.changed(Self.changed(from: Self.owner))
            #expect(Self.cameraUpdates(memory).isEmpty, "the old owner is no longer believed")

            #expect(!signals.nameOwnerChanged(Self.nameOwnerChanged(from: "org.freedesktop.DBus", to: "")), "permissiond went away")
            #expect(signals.trust.owner == nil)
        }
    }

    @Test("GetNameOwner's answer is taken only when no NameOwnerChanged said who owns the name meanwhile")
    func getNameOwnerIsOlder() {
        let trust = PermissionFollower.Trust()
        trust.setOwnerUnlessKnown(":1.3")
        #expect(trust.owner == ":1.3")
        trust.setOwner(":1.9")
        trust.setOwnerUnlessKnown(":1.3")
        #expect(trust.owner == ":1.9")
    }

    @Test("forgers are remembered up to 1024; past that none is logged, so a flood cannot grow memory")
    func forgersBounded() {
        let trust = PermissionFollower.Trust()
        #expect(trust.firstForgery(by: ":1.1"))
        #expect(!trust.firstForgery(by: ":1.1"))
        for index in 2...1024 { #expect(trust.firstForgery(by: ":1.\(index)")) }
        #expect(!trust.firstForgery(by: ":1.1025"))
    }
}
