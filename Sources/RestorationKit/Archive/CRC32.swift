/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as zlib and PNG compute it.
///
/// The archive's checksum: it catches every single-bit error, every burst up to 32 bits and all but
/// one in 2³² of the rest, which is what a torn or bit-rotted file looks like.
public enum CRC32 {
    /// The checksum of `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to check, for example an archive's payload.
    ///   - previous: The checksum of the bytes before these, to checksum pieces as one run (zlib's `crc32`).
    /// - Returns: The CRC-32 of `bytes`; `CRC32.checksum(Array("123456789".utf8)) == 0xCBF43926`.
    public static func checksum(_ bytes: some Sequence<UInt8>, continuing previous: UInt32 = 0) -> UInt32 {
        var crc: UInt32 = previous ^ 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The 256 remainders of one byte, computed once.
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
        }
        return value
    }
}
