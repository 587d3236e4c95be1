/// Input echoed back in error messages, kept small and on one line.
///
/// An error that repeats a 1 MiB argument is a 1 MiB error, and one that repeats a newline is two
/// lines in a log; every program quotes callers' input through ``quoted(_:limit:)``.
package enum Echo {
    /// The longest echo, in characters.
    package static let limit = 64

    /// `raw` in single quotes, control characters escaped (`\n`, `\u{7}`), cut to `limit`
    /// characters with `…` and how much was left out.
    package static func quoted(_ raw: String, limit: Int = Echo.limit) -> String {
        var out = "'"
        var count = 0
        for scalar in raw.unicodeScalars {
            if count >= limit {
                let rest = raw.unicodeScalars.count - count
                return out + "'… (\(rest) more characters)"
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "'": out += "\\'"
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                    || scalar.value == 0x2028 || scalar.value == 0x2029
                {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            count += 1
        }
        return out + "'"
    }
}
