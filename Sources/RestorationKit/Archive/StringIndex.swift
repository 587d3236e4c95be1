/// Numbers strings: a hash table from a string to the number it was first given, for preservation's
/// own strings (identifiers, class names, keys).
///
/// Preservation hashes about three strings per controller; `Dictionary`'s SipHash costs more in
/// setting up and finishing each hash than in the few bytes of an identifier. This table hashes the
/// UTF-8 bytes FNV-1a style, eight at a time, from a seed chosen per process (so that no one can
/// prepare strings that collide), and probes linearly in a table kept at most half full.
struct StringIndex {
    private(set) var strings: [String] = []
    /// Each slot: 0 for empty, else the string's number + 1.
    private var slots: [Int32]
    private var mask: Int

    /// The per-process seed.
    private static let seed = UInt64.random(in: .min ... .max)

    /// A table sized for about `expected` strings.
    init(expected: Int = 16) {
        var capacity = 16
        while capacity < expected * 2 { capacity <<= 1 }
        slots = [Int32](repeating: 0, count: capacity)
        mask = capacity - 1
        strings.reserveCapacity(expected)
    }

    var count: Int { strings.count }

    /// The number of `string`: the one it was given, or the next one when it is new.
    mutating func number(of string: String) -> (number: Int, isNew: Bool) {
        let hash = Self.hash(string)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            if strings[Int(entry) - 1] == string { return (Int(entry) - 1, false) }
            slot = (slot + 1) & mask
        }
        strings.append(string)
        slots[slot] = Int32(strings.count)
        if strings.count * 2 > slots.count { grow() }
        return (strings.count - 1, true)
    }

    /// The number of `string`, if it has one.
    func number(ofExisting string: String) -> Int? {
        var slot = Int(truncatingIfNeeded: Self.hash(string)) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if strings[Int(entry) - 1] == string { return Int(entry) - 1 }
            slot = (slot + 1) & mask
        }
    }

    /// Doubles the table and numbers every string again, in order (so each keeps its number): the
    /// same probe as a new string's, in a table now at most a quarter full.
    private mutating func grow() {
        let capacity = slots.count * 2
        let numbered = strings
        slots = [Int32](repeating: 0, count: capacity)
        mask = capacity - 1
        strings.removeAll(keepingCapacity: true)
        for string in numbered { _ = number(of: string) }
    }

    static func hash(_ string: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
        var string = string
        string.withUTF8 { utf8 in
            // Eight bytes at a time (class names and keys run to 50 bytes), then the rest one by one.
            let raw = UnsafeRawBufferPointer(utf8)
            var offset = 0
            while offset + 8 <= raw.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x0000_0100_0000_01B3
                hash ^= hash >> 32
                offset += 8
            }
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* 0x0000_0100_0000_01B3
                offset += 1
            }
        }
        // Spread the high bits into the low ones the table indexes with.
        hash ^= hash >> 29
        hash = hash &* 0xBF58_476D_1CE4_E5B9
        return hash ^ (hash >> 32)
    }

    /// How many slots the table has (twice the strings at least, so that probes stay short).
    var capacity: Int { slots.count }
}
