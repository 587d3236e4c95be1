import Foundation

/// Hand-made restoration archives for the attacks on checkin-demo's saved state (ArchiveAttackChecks).
enum ForgedArchive {
    /// A format-3 archive of build 1 with the highest generation whose application state holds one
    /// list of `items` strings, each one byte: decoding it makes `items` strings (16 bytes each), 16
    /// times the archive's size, linear but more than a small memory holds.
    static func exhaustingMemory(items: Int) -> Data {
        var payload = le(UInt64(1) << 40) + le(UInt64(0)) + short("1") + varint(0) + varint(1) + short("a")
        payload += varint(1) + varint(0) + [5] + varint(items) + [UInt8](repeating: 0, count: items)  // state: "a" = [a, a, …]
        payload += varint(0) + varint(0) + varint(0)  // no path nodes, controllers or objects
        let head = le(UInt16(3)) + le(UInt16(0)) + le(UInt32(payload.count))
        let crc = crc32(payload, continuing: crc32(head))
        return Data(Array("RLRA".utf8) + head + le(crc) + payload)
    }

    private static func varint(_ value: Int) -> [UInt8] {
        var value = UInt64(value)
        var out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
        return out
    }

    private static func short(_ text: String) -> [UInt8] { varint(text.utf8.count) + Array(text.utf8) }

    private static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// zlib's crc32 (the archive's checksum), continuing from `start` as `zlib.crc32(data, start)` does.
    private static func crc32(_ bytes: [UInt8], continuing start: UInt32 = 0) -> UInt32 {
        var crc = ~start
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { buffer in
                for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            }
        }
        return ~crc
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }
}
