/// JSON string literals, written the one way every Relaunch program writes them.
///
/// The escapes are JSONEncoder's, so a hand-written document (the timeline's streaming writer,
/// `relaunchctl archive dump --json`) reads the same as one Foundation encoded: `"` and `\` (and `/`,
/// unless `escapingSlashes` is false, as JSONEncoder's `.withoutEscapingSlashes`) with a backslash, control characters as `\b \f \n \r \t` or `\u00xx`, everything else as its
/// UTF-8 bytes. DEL, C1 controls and U+2028/2029 are valid in JSON and stay as they are; text output
/// escapes them instead (``TerminalText``).
package enum JSONText {
    /// Appends `value` as a JSON string literal, quotes included, to `out`.
    package static func append(_ value: String, to out: inout [UInt8], escapingSlashes: Bool = true) {
        let slash: UInt8 = escapingSlashes ? UInt8(ascii: "/") : UInt8(ascii: "\"")
        out.append(UInt8(ascii: "\""))
        // Most values (unit names, ids, numbers) need no escape: copied whole, not a byte at a time.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == slash }) {
            out.append(contentsOf: value.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), slash:
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0x08: out.append(contentsOf: "\\b".utf8)
            case 0x0C: out.append(contentsOf: "\\f".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `value` as a JSON string literal, quotes included.
    package static func quoted(_ value: String, escapingSlashes: Bool = true) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count + 2)
        append(value, to: &out, escapingSlashes: escapingSlashes)
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
