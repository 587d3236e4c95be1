/// The receiver's host table: the machine and hostname each uploading host's certificate name was
/// pinned to (docs/FLEET.md, "Who vouches for what").
///
/// The receiver writes one line per host into `fleet-hosts` beside the journal files, at enrolment
/// or at the host's first upload, and never changes it afterwards:
/// ```
/// # certificate-name machine-id hostname [before-certificates]
/// fleet-a 3c1f…e2 fleet-a
/// 10.213.0.11 3c1f…e2 fleet-a before-certificates
/// ```
/// The certificate name is the CN of the host's client certificate, which names its files
/// (`remote-NAME.journal`, `remote-NAME@….journal`); nothing the host sends chooses them.
/// `before-certificates` marks a file kept from before the receiver checked certificates (named by
/// the sender's address): its history, bound to the machine its first entry showed.
package struct FleetHostTable: Sendable, Equatable {
    /// The file's name, in the folder of the journal files it binds.
    package static let fileName = "fleet-hosts"

    /// What one host's files may claim.
    package struct Pin: Sendable, Hashable {
        /// The `_MACHINE_ID` every counted entry of the host's files shows.
        package var machineID: String
        /// The `_HOSTNAME` every counted entry of the host's files shows.
        package var hostname: String

        /// A pin of `machineID` and `hostname`.
        package init(machineID: String, hostname: String) {
            self.machineID = machineID
            self.hostname = hostname
        }

        /// Whether an entry with these journald fields speaks for the pinned host.
        package func admits(machineID: String?, hostname: String?) -> Bool {
            machineID == self.machineID && hostname == self.hostname
        }
    }

    /// A line that is not `NAME MACHINE_ID HOSTNAME [before-certificates]`.
    package struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The line's number, from 1.
        package var line: Int
        /// What is wrong with it.
        package var problem: String

        package var description: String { "line \(line): \(problem)" }
    }

    /// The pin of each certificate name.
    package private(set) var pins: [String: Pin]

    /// A table of these pins.
    package init(pins: [String: Pin] = [:]) {
        self.pins = pins
    }

    /// Reads the table's text.
    /// - Throws: ``ParseError`` naming the first line that is not a pin (or names a host twice).
    package init(parsing text: String) throws(ParseError) {
        var pins: [String: Pin] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard words.count == 3 || (words.count == 4 && words[3] == Self.beforeCertificates) else {
                throw ParseError(line: index + 1, problem: "expected NAME MACHINE_ID HOSTNAME [\(Self.beforeCertificates)]")
            }
            guard Self.isName(words[0]) else { throw ParseError(line: index + 1, problem: "'\(words[0].prefix(64))' is not a certificate name") }
            guard Self.isMachineID(words[1]) else { throw ParseError(line: index + 1, problem: "'\(words[1].prefix(64))' is not a machine id (32 hex digits)") }
            guard Self.isName(words[2]) else { throw ParseError(line: index + 1, problem: "'\(words[2].prefix(64))' is not a hostname") }
            guard pins[words[0]] == nil else { throw ParseError(line: index + 1, problem: "'\(words[0])' is pinned twice") }
            pins[words[0]] = Pin(machineID: words[1], hostname: words[2])
        }
        self.pins = pins
    }

    /// The marker of a row kept from before certificates were checked.
    package static let beforeCertificates = "before-certificates"

    /// Every machine id the table pins.
    package var machineIDs: Set<String> { Set(pins.values.map(\.machineID)) }
    /// Every hostname the table pins.
    package var hostnames: Set<String> { Set(pins.values.map(\.hostname)) }

    /// The certificate name whose files `fileName` is (`remote-NAME.journal`, an archived
    /// `remote-NAME@….journal` or a damaged `remote-NAME@….journal~`), or nil for another file.
    package static func certificateName(ofFile fileName: String) -> String? {
        guard fileName.hasPrefix("remote-") else { return nil }
        var rest = fileName.dropFirst("remote-".count)
        if let at = rest.firstIndex(of: "@") {
            guard fileName.hasSuffix(".journal") || fileName.hasSuffix(".journal~") else { return nil }
            rest = rest[..<at]
        } else {
            guard rest.hasSuffix(".journal") else { return nil }
            rest = rest.dropLast(".journal".count)
        }
        return isName(String(rest)) ? String(rest) : nil
    }

    /// A certificate or host name: letters, digits, `.`, `-`, `:`, `_`, starting with a letter or digit.
    static func isName(_ text: String) -> Bool {
        guard let first = text.utf8.first, isAlnum(first), text.utf8.count <= 253 else { return false }
        return text.utf8.allSatisfy { isAlnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
            || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "_") }
    }

    static func isMachineID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy {
            ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
        }
    }

    private static func isAlnum(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
