import RestorationKit
import Testing

/// The class names an archive records. They are computed without `String(reflecting:)` (whose dynamic
/// casts scan every protocol conformance of the binary, about a millisecond of every relaunch), and
/// must still be exactly its text: archives written by earlier builds name their classes that way.
@Suite("Recorded class names")
struct TypeNameTests {
    private final class Nested: ViewController {}
    private final class Generic<Element>: ViewController {}

    @Test("a controller's class name is String(reflecting:) of its type, for every kind of class")
    func classNames() {
        let controllers: [ViewController] = [
            NoteController("Plain"), RestorableNote(restorable: "Restorable"), Nested(), Generic<Int>(),
            Generic<[String: Double]>(),
        ]
        for controller in controllers {
            #expect(controller.className == String(reflecting: type(of: controller)))
        }
    }

    @Test("a restoration class's recorded name is String(reflecting:) of it")
    func restorationClassNames() {
        #expect(RestorationRegistry.name(of: RestorableNote.self) == String(reflecting: RestorableNote.self))
        #expect(RestorationRegistry.name(of: RestorableNote.self).hasSuffix(".RestorableNote"))
    }
}
