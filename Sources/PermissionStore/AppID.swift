/// The syntax of an app id, shared by the config file and the service.
///
/// An app id is what Settings and the D-Bus API name an app by: `checkin-demo`. It is kept short
/// and lowercase so it can appear in unit names, journal fields and file names unquoted.
enum AppID {
    /// The accepted form, in words and as a pattern, for error messages.
    static let acceptedForm =
        "1 to 64 characters from a-z, 0-9, '.', '_' and '-', starting with a letter or digit "
        + "([a-z0-9][a-z0-9._-]{0,63})"

    /// Whether `id` is a syntactically valid app id (`[a-z0-9][a-z0-9._-]{0,63}`).
    static func isValid(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard let first = bytes.first, bytes.count <= 64, isLowerAlphanumeric(first) else {
            return false
        }
        return bytes.dropFirst().allSatisfy { byte in
            isLowerAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-")
        }
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
