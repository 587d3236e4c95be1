/// Text that an app, a remote host or the journal supplied, made inert for a terminal.
///
/// Every text printer of `relaunchctl` (the journal's timeline and tables, `app screen`, `state`,
/// `elements`, `scenes`, `list`, `archive dump`, the scenario runner, error lines) passes such text
/// through here, so that no field can move the cursor, clear the screen, set the window title, start
/// a hyperlink, reorder a line or forge a line of its own. `--json` and the HTML report keep their
/// own escaping and do not use it.
///
/// What is escaped, as systemd's `utf8_escape_non_printable()` and `cescape_char()` do
/// (src/basic/escape.c): the C0 controls (U+0000–U+001F, ESC among them), DEL, the C1 controls
/// (U+0080–U+009F, CSI and OSC among them), and bytes that are not UTF-8. Also the line and
/// paragraph separators (U+2028, U+2029) and the bidirectional embeddings, overrides and isolates
/// (U+202A–U+202E, U+2066–U+2069), which reorder what follows them on the line ("Trojan Source").
/// How: `\a \b \t \n \v \f \r` by name, everything else as `\xNN` for each of its UTF-8 bytes
/// (ESC is `\x1b`, CSI `\xc2\x9b`). Every other character stays as it is: accents, box drawing,
/// emoji.
///
/// A backslash is not escaped (as in `utf8_escape_non_printable()`): the output holds only
/// printable characters, so escaping it again changes nothing, and a message quoted with ``Echo``
/// and then escaped as a whole reads the same. The price is that a literal `\x1b` an app wrote reads
/// like an escaped ESC; `--json` is the exact form.
package enum TerminalText {
    /// `text` on one line: every character above escaped, line feeds too.
    package static func escaped(_ text: String) -> String {
        isInert(text, keepingLineFeeds: false) ? text : escaped(bytes: text.utf8, keepingLineFeeds: false)
    }

    /// `text` as lines (an app's screen): line feeds kept, everything else above escaped, a carriage
    /// return too (it would draw over the start of its line).
    package static func escapedLines(_ text: String) -> String {
        isInert(text, keepingLineFeeds: true) ? text : escaped(bytes: text.utf8, keepingLineFeeds: true)
    }

    /// `bytes`, read as UTF-8, escaped as ``escaped(_:)`` does (line feeds kept when
    /// `keepingLineFeeds`); a byte that is not part of a valid UTF-8 sequence is `\xNN`.
    package static func escaped(bytes: some Collection<UInt8>, keepingLineFeeds: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            guard let (scalar, next) = decodeScalar(bytes, at: index) else {
                appendHex(bytes[index], to: &out)
                index = bytes.index(after: index)
                continue
            }
            if (keepingLineFeeds && scalar == "\n") || !mustEscape(scalar) {
                out.unicodeScalars.append(scalar)
            } else if let name = name(of: scalar) {
                out += name
            } else {
                for byte in String(scalar).utf8 { appendHex(byte, to: &out) }
            }
            index = next
        }
        return out
    }

    /// Whether `scalar` is escaped: a C0 or C1 control, DEL, a line or paragraph separator, or a
    /// bidirectional embedding, override or isolate.
    package static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether `text` needs no escaping: the common case, checked without building anything.
    private static func isInert(_ text: String, keepingLineFeeds: Bool) -> Bool {
        text.utf8.allSatisfy { byte in
            (0x20..<0x7F).contains(byte) || (keepingLineFeeds && byte == 0x0A)
        } || text.unicodeScalars.allSatisfy { (keepingLineFeeds && $0 == "\n") || !mustEscape($0) }
    }

    /// systemd's `cescape_char()` names.
    private static func name(of scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\u{07}": "\\a"
        case "\u{08}": "\\b"
        case "\t": "\\t"
        case "\n": "\\n"
        case "\u{0B}": "\\v"
        case "\u{0C}": "\\f"
        case "\r": "\\r"
        default: nil
        }
    }

    private static func appendHex(_ byte: UInt8, to out: inout String) {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
        out += "\\x"
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0F)])
    }

    /// The scalar of the well-formed UTF-8 sequence at `index` (no overlong form, no surrogate, at
    /// most U+10FFFF) and the index after it, or nil when the byte there starts none.
    private static func decodeScalar<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, at index: Bytes.Index
    ) -> (Unicode.Scalar, Bytes.Index)? {
        let lead = bytes[index]
        let (length, lowest): (Int, UInt32)
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), bytes.index(after: index))
        case 0xC2...0xDF: (length, lowest) = (2, 0x80)
        case 0xE0...0xEF: (length, lowest) = (3, 0x800)
        case 0xF0...0xF4: (length, lowest) = (4, 0x1_0000)
        default: return nil
        }
        var value = UInt32(lead) & (0x7F >> length)
        var next = bytes.index(after: index)
        for _ in 1..<length {
            guard next != bytes.endIndex, bytes[next] & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(bytes[next] & 0x3F)
            next = bytes.index(after: next)
        }
        guard value >= lowest, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, next)
    }
}
