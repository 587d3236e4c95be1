/// Journal field names: turning arbitrary keys (e.g. swift-log metadata keys) into names journald keeps.
///
/// journald silently drops fields whose names are not 1–64 characters of `A-Z`, `0-9` and `_`
/// starting with a letter (names starting with `_` are reserved for fields journald adds itself).
package enum JournalFieldName {
    /// The longest name journald accepts.
    package static let maximumLength = 64

    /// Whether journald accepts `name` from a client as is.
    package static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...maximumLength).contains(bytes.count), let first = bytes.first else { return false }
        guard isUppercaseLetter(first) else { return false }
        return bytes.allSatisfy { isUppercaseLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// A valid field name for `key`, or nil when `key` is empty.
    ///
    /// Rules, in order: ASCII letters are uppercased; every other character that is not `A-Z`, `0-9`
    /// or `_` becomes `_` (one per Unicode scalar); a result starting with a digit or `_` gets an `X`
    /// in front (so `_SYSTEMD_UNIT` cannot pose as a trusted field: it becomes `X_SYSTEMD_UNIT`);
    /// the result is cut to 64 characters. `request.id` → `REQUEST_ID`, `2fa` → `X2FA`.
    package static func sanitize(_ key: String) -> String? {
        guard !key.isEmpty else { return nil }
        var bytes: [UInt8] = key.unicodeScalars.map { scalar in
            guard scalar.isASCII else { return UInt8(ascii: "_") }
            var byte = UInt8(scalar.value)
            if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { byte -= 32 }
            return isUppercaseLetter(byte) || isDigit(byte) ? byte : UInt8(ascii: "_")
        }
        if let first = bytes.first, !isUppercaseLetter(first) {
            bytes.insert(UInt8(ascii: "X"), at: 0)
        }
        return String(decoding: bytes.prefix(maximumLength), as: UTF8.self)
    }

    private static func isUppercaseLetter(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
