/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as zlib and PNG compute it.
///
/// The archive's checksum: it catches every single-bit error, every burst up to 32 bits and all but
/// one in 2³² of the rest, which is what a torn or bit-rotted file looks like. Contiguous bytes are
/// checksummed eight at a time ("slicing-by-8", eight tables of 256 remainders), several times
/// faster than a byte at a time.
public enum CRC32 {
    /// The checksum of `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to check, for example an archive's payload.
    ///   - previous: The checksum of the bytes before these, to checksum pieces as one run (zlib's `crc32`).
    /// - Returns: The CRC-32 of `bytes`; `CRC32.checksum(Array("123456789".utf8)) == 0xCBF43926`.
    public static func checksum(_ bytes: some Sequence<UInt8>, continuing previous: UInt32 = 0) -> UInt32 {
        if let sum = bytes.withContiguousStorageIfAvailable({ update(previous ^ 0xFFFF_FFFF, $0) }) {
            return sum ^ 0xFFFF_FFFF
        }
        var crc: UInt32 = previous ^ 0xFFFF_FFFF
        tables.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static func update(_ start: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var crc = start
        tables.withUnsafeBufferPointer { table in
            var index = 0
            let count = bytes.count
            while index + 8 <= count {
                let low = crc ^ (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
                    | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24)
                crc = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(bytes[index + 4])] ^ table[2 * 256 + Int(bytes[index + 5])]
                    ^ table[256 + Int(bytes[index + 6])] ^ table[Int(bytes[index + 7])]
                index += 8
            }
            while index < count {
                crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        return crc
    }

    /// Eight tables of 256 remainders, one after the other: table 0 is one byte's, table k that of a
    /// byte followed by k zero bytes. Computed once.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
            tables[index] = value
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()
}
