/// Appends little-endian integers and length-prefixed strings to a byte array.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    mutating func append(_ value: UInt8) { bytes.append(value) }
    mutating func append(_ value: UInt16) { appendLittleEndian(UInt64(value), size: 2) }
    mutating func append(_ value: UInt32) { appendLittleEndian(UInt64(value), size: 4) }
    mutating func append(_ value: UInt64) { appendLittleEndian(value, size: 8) }
    mutating func append(raw: some Collection<UInt8>) { bytes.append(contentsOf: raw) }

    /// A UTF-8 string as a 32-bit length and its bytes.
    mutating func append(_ string: String) {
        let utf8 = Array(string.utf8)
        append(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// Overwrites four bytes at `offset` (for a length or checksum known only at the end).
    mutating func patch(_ value: UInt32, at offset: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
    }

    private mutating func appendLittleEndian(_ value: UInt64, size: Int) {
        for index in 0..<size { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }
}

/// Reads what `ByteWriter` wrote, failing with `ArchiveError.malformed` instead of trapping.
///
/// Every length is checked against the bytes left before anything is allocated, so a forged length
/// cannot make a reader allocate gigabytes.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset: Int
    /// Added to offsets in error messages, so that they count from the start of the file.
    private let base: Int

    init(_ bytes: [UInt8], offset: Int = 0, reportingFrom base: Int = 0) {
        self.bytes = bytes
        self.offset = offset
        self.base = base
    }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset == bytes.count }

    mutating func readUInt8(_ what: String) throws(ArchiveError) -> UInt8 {
        UInt8(try readLittleEndian(size: 1, what))
    }

    mutating func readUInt16(_ what: String) throws(ArchiveError) -> UInt16 {
        UInt16(try readLittleEndian(size: 2, what))
    }

    mutating func readUInt32(_ what: String) throws(ArchiveError) -> UInt32 {
        UInt32(try readLittleEndian(size: 4, what))
    }

    mutating func readUInt64(_ what: String) throws(ArchiveError) -> UInt64 {
        try readLittleEndian(size: 8, what)
    }

    /// A count of items each at least `minimumItemSize` bytes long, checked against what is left.
    mutating func readCount(_ what: String, minimumItemSize: Int) throws(ArchiveError) -> Int {
        let start = offset
        let count = Int(try readUInt32(what))
        guard count * minimumItemSize <= remaining else {
            throw fault(at: start, "\(what) says \(count) but only \(remaining) bytes are left")
        }
        return count
    }

    mutating func readBytes(_ what: String) throws(ArchiveError) -> [UInt8] {
        let count = try readCount(what, minimumItemSize: 1)
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func readString(_ what: String) throws(ArchiveError) -> String {
        let start = offset
        let raw = try readBytes(what)
        guard let string = String(validating: raw, as: UTF8.self) else {
            throw fault(at: start, "\(what) is not valid UTF-8")
        }
        return string
    }

    func fault(at offset: Int? = nil, _ detail: String) -> ArchiveError {
        .malformed(offset: base + (offset ?? self.offset), detail: detail)
    }

    private mutating func readLittleEndian(size: Int, _ what: String) throws(ArchiveError) -> UInt64 {
        guard remaining >= size else { throw fault("\(what) needs \(size) bytes, \(remaining) left") }
        var value: UInt64 = 0
        for index in 0..<size { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        offset += size
        return value
    }
}
