import RelaunchContract
import Testing

@Suite("Echo: callers' input in error messages")
struct EchoTests {
    @Test("short input comes back quoted as it is")
    func short() {
        #expect(Echo.quoted("camera") == "'camera'")
        #expect(Echo.quoted("") == "''")
    }

    @Test("control characters, quotes and line separators are escaped: one line")
    func escaped() {
        #expect(Echo.quoted("a\nb\tc\r") == #"'a\nb\tc\r'"#)
        #expect(Echo.quoted("it's") == #"'it\'s'"#)
        #expect(Echo.quoted("a\u{7}b\u{2028}c") == #"'a\u{7}b\u{2028}c'"#)
        // DEL, a C1 control (NEL) and the paragraph separator too: each could break or hide a line.
        #expect(Echo.quoted("a\u{7F}b\u{85}c\u{2029}d") == #"'a\u{7f}b\u{85}c\u{2029}d'"#)
        #expect(Echo.quoted("é~") == "'é~'", "printable characters stay as they are")
        #expect(!Echo.quoted("x\ny").contains("\n"))
    }

    @Test("input past the limit is cut and says how much was left out")
    func cut() {
        let text = String(repeating: "a", count: 64)
        #expect(Echo.quoted(text) == "'\(text)'")
        let long = String(repeating: "b", count: 1 << 20)
        let echoed = Echo.quoted(long)
        #expect(echoed == "'" + String(repeating: "b", count: 64) + "'… (\((1 << 20) - 64) more characters)")
        #expect(Echo.quoted("abcdef", limit: 3) == "'abc'… (3 more characters)")
    }
}
