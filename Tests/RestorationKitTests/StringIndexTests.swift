@testable import RestorationKit
import Testing

/// Preservation's string numbering and path hashing: each string one number, however the table
/// grows; different paths hashed apart, so that sets and dictionaries of them stay fast.
@Suite("String numbering and path hashing")
struct StringIndexTests {
    @Test("each string keeps the number it was first given while the table grows past its first size")
    func numbersAcrossGrowth() {
        var index = StringIndex(expected: 4)
        let strings = (0..<2000).map { "identifier-\($0)" }
        // 16 slots hold 8 strings (at most half full); the ninth doubles them.
        for string in strings.prefix(8) { _ = index.number(of: string) }
        #expect(index.capacity == 16)
        _ = index.number(of: strings[8])
        #expect(index.capacity == 32)
        index = StringIndex(expected: 4)
        for (number, string) in strings.enumerated() {
            let given = index.number(of: string)
            #expect(given.number == number && given.isNew, "\(string)")
        }
        #expect(index.count == strings.count)
        var lost: [String] = []
        for (number, string) in strings.enumerated() {
            let again = index.number(of: string)
            if again.number != number || again.isNew || index.number(ofExisting: string) != number { lost.append(string) }
        }
        #expect(lost.isEmpty, "numbered again or not found after growing: \(lost.prefix(5))")
        #expect(index.count == strings.count)
        #expect(index.number(ofExisting: "identifier-2000") == nil)
    }

    @Test("strings that differ in any byte, in the eight-byte groups or in the tail, hash apart")
    func stringHashes() {
        // Lengths 1 to 20: every string is a run of "a" with one byte changed, at each position.
        var strings: [String] = []
        for length in 1...20 {
            let base = [UInt8](repeating: 0x61, count: length)
            strings.append(String(decoding: base, as: UTF8.self))
            for position in 0..<length {
                var changed = base
                changed[position] = 0x62
                strings.append(String(decoding: changed, as: UTF8.self))
            }
        }
        let hashes = Set(strings.map(StringIndex.hash))
        #expect(hashes.count == strings.count, "\(strings.count - hashes.count) strings share a hash")
    }

    @Test("paths of one depth that differ hash apart")
    func pathHashes() {
        let names = (0..<64).map { "Tab\($0)" }
        let hashes = Set(names.map { PathReference(path: ["Root", $0]).hashValue })
        // 64 random 64-bit hashes collide with a chance of about 2^-52.
        #expect(hashes.count == names.count)
        #expect(PathReference(path: ["Root", "A"]).hashValue != PathReference(path: ["Other", "A"]).hashValue)
    }
}
