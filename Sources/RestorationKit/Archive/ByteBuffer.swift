/// Appends little-endian integers, variable-length integers and strings to a growing buffer.
///
/// It writes through a pointer into memory it owns (one bounds check per value, not per byte, and no
/// uniqueness check), which matters at 40 bytes a controller; `bytes` copies the result out once.
struct ByteWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// How many bytes were written.
    private(set) var count = 0

    init(capacity: Int = 512) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    mutating func append(_ value: UInt8) {
        reserve(1)
        base[count] = value
        count += 1
    }

    mutating func append(_ value: UInt16) { appendLittleEndian(value) }
    mutating func append(_ value: UInt32) { appendLittleEndian(value) }
    mutating func append(_ value: UInt64) { appendLittleEndian(value) }

    mutating func append(raw: some Collection<UInt8>) {
        reserve(raw.count)
        let written = UnsafeMutableBufferPointer(start: base + count, count: raw.count).initialize(from: raw).1
        count += written
    }

    /// What another writer wrote.
    mutating func append(contentsOf other: borrowing ByteWriter) {
        reserve(other.count)
        (base + count).update(from: other.base, count: other.count)
        count += other.count
    }

    /// A UTF-8 string as a 32-bit length and its bytes (formats 1 and 2).
    mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            append(UInt32(utf8.count))
            appendBytes(utf8)
        }
    }

    /// An unsigned integer in 7-bit groups, low group first, the high bit set on all but the last
    /// (LEB128, as protobuf and WebAssembly write it): 1 byte below 128, 3 below 2 097 152.
    mutating func appendVarint(_ value: UInt64) {
        reserve(10)
        var value = value
        while value >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: value) | 0x80
            count += 1
            value >>= 7
        }
        base[count] = UInt8(value)
        count += 1
    }

    /// A count or index as a varint.
    mutating func appendVarint(_ value: Int) { appendVarint(UInt64(value)) }

    /// A UTF-8 string as a varint length and its bytes (format 3).
    mutating func appendShortString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            appendVarint(utf8.count)
            appendBytes(utf8)
        }
    }

    /// Overwrites four bytes at `offset` (for a length or checksum known only at the end).
    mutating func patch(_ value: UInt32, at offset: Int) {
        for index in 0..<4 { base[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
    }

    private mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    private mutating func appendLittleEndian(_ value: some FixedWidthInteger) {
        let size = MemoryLayout.size(ofValue: value)
        reserve(size)
        withUnsafeBytes(of: value.littleEndian) { raw in
            for index in 0..<size { base[count + index] = raw[index] }
        }
        count += size
    }

    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        var grown = capacity * 2
        while grown < count + extra { grown *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }
}

/// Reads what `ByteWriter` wrote, failing with `ArchiveError.malformed` instead of trapping.
///
/// Every length is checked against the bytes left before anything is allocated, so a forged length
/// cannot make a reader allocate gigabytes. It reads a buffer it does not own: use it only inside
/// `withUnsafeBufferPointer` of the bytes (`ByteReader.read(_:from:reportingFrom:_:)`).
///
/// It also counts the values a decoder makes from the bytes (`work`: strings, records, entries, path
/// nodes, identifiers put into a path), charged with `charge(_:)`. Each of them consumes at least one
/// byte, so a correct decoder stays within `workLimit`, a small multiple of the bytes read; a decoder
/// that would make more (a path built again for every record that names it) fails as `malformed`
/// instead of running out of time or memory, and tests compare the count of archives of N and 2N
/// bytes to prove that decoding is linear.
struct ByteReader {
    private let buffer: UnsafeBufferPointer<UInt8>
    private(set) var offset: Int
    /// Added to offsets in error messages, so that they count from the start of the file.
    private let base: Int
    /// The values made so far (see `charge(_:)`).
    private(set) var work = 0
    /// The most values a decoder may make from this buffer.
    let workLimit: Int

    /// Values a decoder may make per byte of its input; 64 more are allowed for any input, so that
    /// a short section (a few bytes of header, an empty list) is never refused for its size alone.
    static let workPerByte = 4

    private init(_ buffer: UnsafeBufferPointer<UInt8>, offset: Int, base: Int) {
        self.buffer = buffer
        self.offset = offset
        self.base = base
        workLimit = Self.workPerByte * buffer.count + 64
    }

    /// Runs `body` with a reader of `bytes` from `offset`.
    static func read<Result>(
        _ bytes: [UInt8], from offset: Int = 0, reportingFrom base: Int = 0,
        _ body: (inout ByteReader) throws(ArchiveError) -> Result
    ) throws(ArchiveError) -> Result {
        try read(bytes, from: offset, reportingFrom: base, work: nil, body)
    }

    /// Runs `body` with a reader of `bytes` from `offset`; `work` receives the values it made.
    static func read<Result>(
        _ bytes: [UInt8], from offset: Int = 0, reportingFrom base: Int = 0, work: UnsafeMutablePointer<Int>?,
        _ body: (inout ByteReader) throws(ArchiveError) -> Result
    ) throws(ArchiveError) -> Result {
        let result: Swift.Result<Result, ArchiveError> = bytes.withUnsafeBufferPointer { buffer in
            var reader = ByteReader(buffer, offset: offset, base: base)
            defer { work?.pointee = reader.work }
            do throws(ArchiveError) {
                return .success(try body(&reader))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Counts `units` values about to be made, refusing the archive when they would exceed `workLimit`.
    @inline(__always)
    mutating func charge(_ units: Int = 1) throws(ArchiveError) {
        work += units
        guard work <= workLimit else { throw overworked() }
    }

    @inline(never)
    private func overworked() -> ArchiveError {
        fault("decoding would make over \(workLimit) values from \(buffer.count) bytes; the archive is forged or damaged")
    }

    var remaining: Int { buffer.count - offset }
    var isAtEnd: Bool { offset == buffer.count }

    mutating func readUInt8(_ what: String) throws(ArchiveError) -> UInt8 {
        guard offset < buffer.count else { throw fault("\(what) needs 1 byte, 0 left") }
        defer { offset += 1 }
        return buffer[offset]
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

    /// A varint; an over-long one (a needless zero group, or more than 64 bits) is malformed, so that
    /// every value has one encoding.
    @inline(__always)
    mutating func readVarint(_ what: String) throws(ArchiveError) -> UInt64 {
        // Most counts and indexes are below 128: one byte, no loop.
        if offset < buffer.count, buffer[offset] < 0x80 {
            offset += 1
            return UInt64(buffer[offset - 1])
        }
        return try readLongVarint(what)
    }

    @inline(never)
    private mutating func readLongVarint(_ what: String) throws(ArchiveError) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < buffer.count else { throw fault(at: start, "\(what) is cut short") }
            let byte = buffer[offset]
            offset += 1
            guard shift < 63 || byte <= 1 else { throw fault(at: start, "\(what) is over 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 {
                guard byte != 0 || shift == 0 else { throw fault(at: start, "\(what) has a needless zero group") }
                return value
            }
            shift += 7
        }
    }

    /// A varint count of items each at least `minimumItemSize` bytes long, checked against what is left.
    mutating func readVarintCount(_ what: String, minimumItemSize: Int) throws(ArchiveError) -> Int {
        let start = offset
        let count = try readVarint(what)
        guard count <= UInt64(remaining / max(minimumItemSize, 1)) else {
            throw fault(at: start, "\(what) says \(count) but only \(remaining) bytes are left")
        }
        return Int(count)
    }

    /// A varint index below `limit`.
    mutating func readIndex(_ what: String, below limit: Int) throws(ArchiveError) -> Int {
        let start = offset
        let index = try readVarint(what)
        guard index < UInt64(limit) else { throw fault(at: start, "\(what) is \(index), not below \(limit)") }
        return Int(index)
    }

    mutating func readBytes(_ what: String) throws(ArchiveError) -> [UInt8] {
        let count = try readCount(what, minimumItemSize: 1)
        try charge()
        defer { offset += count }
        return Array(buffer[offset..<offset + count])
    }

    /// Bytes after a varint length.
    mutating func readShortBytes(_ what: String) throws(ArchiveError) -> [UInt8] {
        let count = try readVarintCount(what, minimumItemSize: 1)
        try charge()
        defer { offset += count }
        return Array(buffer[offset..<offset + count])
    }

    mutating func readString(_ what: String) throws(ArchiveError) -> String {
        let start = offset
        let count = try readCount(what, minimumItemSize: 1)
        return try string(at: start, count: count, what)
    }

    /// A string after a varint length.
    mutating func readShortString(_ what: String) throws(ArchiveError) -> String {
        let start = offset
        let count = try readVarintCount(what, minimumItemSize: 1)
        return try string(at: start, count: count, what)
    }

    func fault(at offset: Int? = nil, _ detail: String) -> ArchiveError {
        .malformed(offset: base + (offset ?? self.offset), detail: detail)
    }

    private mutating func string(at start: Int, count: Int, _ what: String) throws(ArchiveError) -> String {
        try charge()
        let utf8 = UnsafeBufferPointer(rebasing: buffer[offset..<offset + count])
        // ASCII (identifiers, class names, keys, most text) is valid as it is; the rest is checked.
        let string: String
        if utf8.allSatisfy({ $0 < 0x80 }) {
            string = String(decoding: utf8, as: UTF8.self)
        } else {
            guard let valid = String(validating: utf8, as: UTF8.self) else {
                throw fault(at: start, "\(what) is not valid UTF-8")
            }
            string = valid
        }
        offset += count
        return string
    }

    private mutating func readLittleEndian(size: Int, _ what: String) throws(ArchiveError) -> UInt64 {
        guard remaining >= size else { throw fault("\(what) needs \(size) bytes, \(remaining) left") }
        var value: UInt64 = 0
        for index in 0..<size { value |= UInt64(buffer[offset + index]) << (8 * UInt64(index)) }
        offset += size
        return value
    }
}
