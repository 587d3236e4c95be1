import Foundation
import RelaunchContract
import Testing

@Suite("JSONText: the one JSON string writer, byte for byte JSONEncoder's")
struct JSONTextTests {
    static let samples: [String] = [
        "", "checkin-demo.service", "Root/Forged\nTabViewController", "quote \" and backslash \\",
        "\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1B}[2J\u{1F}", "DEL \u{7F} C1 \u{85} LS \u{2028}", "é ü 日本 🏳️‍🌈",
        "a/b//c", String(repeating: "x/", count: 300),
    ]

    @Test("Every sample, and every single scalar below 0x100, reads as JSONEncoder writes it", arguments: [true, false])
    func sameAsJSONEncoder(escapingSlashes: Bool) throws {
        let encoder = JSONEncoder()
        if !escapingSlashes { encoder.outputFormatting = .withoutEscapingSlashes }
        let scalars = (0..<0x100).compactMap(Unicode.Scalar.init).map { String(Character($0)) }
        for sample in Self.samples + scalars {
            let expected = String(decoding: try encoder.encode(sample), as: UTF8.self)
            #expect(JSONText.quoted(sample, escapingSlashes: escapingSlashes) == expected, "\(Array(sample.unicodeScalars))")
        }
    }

    @Test("What it writes decodes back to the same string")
    func roundTrip() throws {
        for sample in Self.samples {
            for slashes in [true, false] {
                let text = JSONText.quoted(sample, escapingSlashes: slashes)
                #expect(try JSONDecoder().decode(String.self, from: Data(text.utf8)) == sample)
            }
        }
    }
}
