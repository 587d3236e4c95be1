import RelaunchBus
import RelaunchContract
import Systemd
import Testing

/// The descriptions say what CONTRACT.md says: names, paths, signatures.
@Suite("Relaunch's D-Bus interfaces, described once")
struct InterfaceTests {
    @Test("org.relaunch.Permissions1")
    func permissions() {
        let interface = BusInterface.permissions1
        #expect(interface.name == "org.relaunch.Permissions1")
        #expect(interface.objectPath == "/org/relaunch/Permissions1")
        let signatures = Dictionary(uniqueKeysWithValues: interface.methods.map { ($0.name, "\($0.inputSignature)->\($0.outputSignature)") })
        #expect(signatures == [
            "Get": "ss->s", "List": "s->a{ss}", "ListApps": "->as", "Set": "sss->", "Reset": "ss->",
            "LastKill": "s->(sssst)", "Lifecycle": "ss->", "TestHook": "s->",
        ])
        #expect(interface.signals.map(\.name) == ["Changed", "KillMainProcess"])
        #expect(interface.signals.last?.signature == "su")
        #expect(interface.signals.first?.signature == "ssssb")
        #expect(interface.signals.first?.arguments.map(\.name) == ["app", "permission", "old_state", "new_state", "killed"])
    }

    @Test("org.relaunch.App1")
    func app() {
        let interface = BusInterface.app1
        #expect(interface.name == "org.relaunch.App1")
        #expect(BusInterface.app1ObjectPath == "/org/relaunch/App1")
        let signatures = Dictionary(uniqueKeysWithValues: interface.methods.map { ($0.name, "\($0.inputSignature)->\($0.outputSignature)") })
        #expect(signatures == [
            "Ready": "->(bs)", "State": "->s", "Screen": "->s", "Elements": "->a(sss)", "Tap": "s->", "Type": "ss->",
            "Background": "->", "Foreground": "->", "Quit": "b->", "TestHook": "s->",
            "Scenes": "->a(sss)", "OpenScene": "->s", "CloseScene": "s->", "SceneTap": "ss->", "SceneType": "sss->",
            "SceneScreen": "s->s", "SceneElements": "s->a(sss)",
        ])
    }

    /// org.relaunch.App1 as the apps published it before its table (App1Method) existed, row by row in
    /// introspection order: the table must build exactly this, or busctl and the sandbox checks notice.
    static let app1AsPublished: [BusInterface.Method] = {
        typealias M = BusInterface.Method
        typealias A = BusInterface.Argument
        return [
            M("Ready", returns: [A("ready", "(bs)")]),
            M("State", returns: [A("json", "s")]),
            M("Screen", returns: [A("screen", "s")]),
            M("Elements", returns: [A("elements", "a(sss)")]),
            M("Tap", [A("element", "s")]),
            M("Type", [A("field", "s"), A("text", "s")]),
            M("Background"),
            M("Foreground"),
            M("Quit", [A("force", "b")]),
            M("TestHook", [A("name", "s")]),
            M("Scenes", returns: [A("scenes", "a(sss)")]),
            M("OpenScene", returns: [A("session", "s")]),
            M("CloseScene", [A("session", "s")]),
            M("SceneTap", [A("session", "s"), A("element", "s")]),
            M("SceneType", [A("session", "s"), A("field", "s"), A("text", "s")]),
            M("SceneScreen", [A("session", "s")], returns: [A("screen", "s")]),
            M("SceneElements", [A("session", "s")], returns: [A("elements", "a(sss)")]),
        ]
    }()

    @Test("org.relaunch.App1 built from its table is what the apps published: names, argument names, signatures, order")
    func app1Golden() {
        #expect(BusInterface.app1.methods == Self.app1AsPublished)
        #expect(BusInterface.app1.signals.isEmpty)
        #expect(BusInterface.app1.errors.isEmpty)
        for method in App1Method.allCases {
            #expect(App1Method(member: method.member) == method, "\(method.member) reads back as its row")
        }
    }

    @Test("a scene is the (sss) Scenes() answers with, and reads back")
    func scene() throws {
        let scene = AppScene(session: "3F2A", title: "Shopping", activityType: "org.relaunch.notes.editing")
        #expect(scene.busValue.signature == "(sss)")
        let reply = BusValues([.array(elementSignature: "(sss)", [scene.busValue])])
        #expect(try AppScene.scenes(from: reply) == [scene])
    }

    @Test("an element is the (sss) Elements() answers with")
    func element() {
        let element = AppElement(name: "note", kind: .type, description: "a note")
        #expect(element.busValue == .structure([.string("note"), .string("type"), .string("a note")]))
        #expect(element.busValue.signature == "(sss)")
    }
}
