import RelaunchContract
import Testing

@Suite("TerminalText: what an app, a host or the journal wrote, inert on a terminal")
struct TerminalTextTests {
    @Test("printable text comes back as it is: ASCII, accents, box drawing, emoji, U+FFFD, a backslash")
    func printableStays() {
        for text in ["", "checkin-demo", "Café Zürich", "╭──╮ │░▏│ ✓ ■", "🙂 ok", "\u{FFFD}", #"C:\dir \x1b"#,
                     "\u{A0}no-break", "\u{200B}zero width", "\u{200E}mark"] {
            #expect(TerminalText.escaped(text) == text)
            #expect(TerminalText.escapedLines(text) == text)
        }
    }

    @Test("every C0 control: named as systemd's cescape_char does, else \\xNN")
    func c0Controls() {
        let named: [UInt32: String] = [7: #"\a"#, 8: #"\b"#, 9: #"\t"#, 10: #"\n"#, 11: #"\v"#, 12: #"\f"#, 13: #"\r"#]
        for value in UInt32(0)...0x1F {
            let scalar = Unicode.Scalar(value)!
            let hex = String(value, radix: 16)
            let expected = named[value] ?? #"\x"# + (hex.count == 1 ? "0" : "") + hex
            #expect(TerminalText.escaped("a\(Character(scalar))b") == "a\(expected)b", "U+\(hex)")
        }
        #expect(TerminalText.escaped("\u{1B}[2J") == #"\x1b[2J"#)
    }

    @Test("DEL and every C1 control: each UTF-8 byte as \\xNN (CSI is \\xc2\\x9b)")
    func delAndC1() {
        #expect(TerminalText.escaped("a\u{7F}b") == #"a\x7fb"#)
        for value in UInt32(0x80)...0x9F {
            let scalar = Unicode.Scalar(value)!
            let bytes = String(scalar).utf8.map { #"\x"# + String($0, radix: 16) }.joined()
            #expect(TerminalText.escaped(String(scalar)) == bytes, "U+\(String(value, radix: 16))")
        }
        #expect(TerminalText.escaped("\u{9B}2J") == #"\xc2\x9b2J"#)
    }

    @Test("line and paragraph separators, bidirectional overrides and isolates are escaped")
    func separatorsAndBidi() {
        #expect(TerminalText.escaped("a\u{2028}b\u{2029}c") == #"a\xe2\x80\xa8b\xe2\x80\xa9c"#)
        #expect(TerminalText.escaped("\u{202E}fdp.exe") == #"\xe2\x80\xaefdp.exe"#)
        for value: UInt32 in [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] {
            #expect(TerminalText.mustEscape(Unicode.Scalar(value)!), "U+\(String(value, radix: 16))")
        }
        #expect(!TerminalText.mustEscape("\u{202F}"))
        #expect(!TerminalText.mustEscape("\u{2065}"))
        #expect(!TerminalText.mustEscape("\u{206A}"))
    }

    @Test("the attack of issue 34: a title, a bell and a screen clear print as text")
    func terminalSequences() {
        let typed = "\u{1B}]0;pwned\u{07}\u{1B}[2J"
        #expect(TerminalText.escaped(typed) == #"\x1b]0;pwned\a\x1b[2J"#)
        // A hyperlink (OSC 8) ended by ST (ESC \).
        #expect(TerminalText.escaped("\u{1B}]8;;http://x\u{1B}\\") == #"\x1b]8;;http://x\x1b\"#)
    }

    @Test("escapedLines keeps line feeds and escapes a carriage return, which would draw over its line")
    func lines() {
        #expect(TerminalText.escapedLines("one\ntwo\n") == "one\ntwo\n")
        #expect(TerminalText.escapedLines("│ a\u{1B}[2Jb │\n│ c\r\n") == "│ a\\x1b[2Jb │\n│ c\\r\n")
        #expect(TerminalText.escaped("one\ntwo\n") == #"one\ntwo\n"#)
    }

    @Test("bytes that are not UTF-8 are \\xNN each; the valid ones around them stay")
    func invalidUTF8() {
        func escaped(_ bytes: [UInt8]) -> String { TerminalText.escaped(bytes: bytes) }
        #expect(escaped([0x61, 0xFF, 0x62]) == #"a\xffb"#, "a byte that is never UTF-8")
        #expect(escaped([0x80]) == #"\x80"#, "a lone continuation byte")
        #expect(escaped([0xC3]) == #"\xc3"#, "a sequence cut short at the end")
        #expect(escaped([0xE2, 0x94, 0x41]) == #"\xe2\x94A"#, "a sequence cut short by ASCII")
        #expect(escaped([0xC0, 0xAF]) == #"\xc0\xaf"#, "an overlong '/'")
        #expect(escaped([0xE0, 0x80, 0xAF]) == #"\xe0\x80\xaf"#, "an overlong three-byte form")
        #expect(escaped([0xF0, 0x80, 0x80, 0xAF]) == #"\xf0\x80\x80\xaf"#, "an overlong four-byte form")
        #expect(escaped([0xED, 0xA0, 0x80]) == #"\xed\xa0\x80"#, "a UTF-16 surrogate")
        #expect(escaped([0xF4, 0x90, 0x80, 0x80]) == #"\xf4\x90\x80\x80"#, "above U+10FFFF")
        #expect(escaped([0xF5, 0x80]) == #"\xf5\x80"#)
        #expect(escaped(Array("é╭🙂".utf8)) == "é╭🙂", "valid two-, three- and four-byte forms stay")
        #expect(escaped([0xE2, 0x95, 0xAD, 0x1B, 0xFE]) == #"╭\x1b\xfe"#)
        #expect(TerminalText.escaped(bytes: [0x61, 0x0A, 0x0D], keepingLineFeeds: true) == "a\n\\r")
    }

    @Test("escaping is idempotent: its output holds no character it would escape")
    func idempotent() {
        var samples = ["\u{1B}]0;pwned\u{07}\u{1B}[2J", "a\nb\r\tc", "\u{9B}\u{7F}\u{2028}\u{202E}", #"\x1b already"#]
        // Every scalar up to U+2100, and the high ones the escape touches.
        samples.append(String(String.UnicodeScalarView((0...0x2100).compactMap(Unicode.Scalar.init))))
        samples.append(String(String.UnicodeScalarView((0x2000...0x2100).compactMap(Unicode.Scalar.init) + ["\u{10FFFF}"])))
        for text in samples {
            let once = TerminalText.escaped(text)
            #expect(TerminalText.escaped(once) == once)
            #expect(!once.unicodeScalars.contains(where: TerminalText.mustEscape))
            let lines = TerminalText.escapedLines(text)
            #expect(TerminalText.escapedLines(lines) == lines)
            #expect(!lines.unicodeScalars.contains { $0 != "\n" && TerminalText.mustEscape($0) })
        }
        let bytes = TerminalText.escaped(bytes: (0...255).map(UInt8.init))
        #expect(TerminalText.escaped(bytes) == bytes)
        #expect(bytes.utf8.allSatisfy { (0x20..<0x7F).contains($0) }, "every byte value comes out as printable ASCII")
    }
}
