// A restoration archive's payload, formats 1 to 4: the first byte picks the format (byte % 4 + 1),
// the rest is the payload, framed here with a right prefix (magic, version, length, CRC-32) so that
// every input reaches the payload decoders. What decodes is drawn as `relaunchctl archive dump`
// draws it, and encoded again: the new bytes must decode and encode to themselves.
// fuzz-build: RestorationKit RelaunchContract
// fuzz-link: RestorationKit RelaunchContract
// fuzz-sources: Sources/relaunchctl/ArchiveText.swift Sources/relaunchctl/ArchiveText+Scenes.swift Sources/relaunchctl/JSONString.swift
@testable import RestorationKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let version = UInt16(data[0] % 4 + 1)
    let payload = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var bytes = ArchiveCodec.magic
    bytes += [UInt8(version), 0, 0, 0]
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: payload.count >> shift)) }
    bytes += [0, 0, 0, 0]
    bytes += payload
    let sum = ArchiveCodec.checksum(of: bytes)
    for index in 0..<4 { bytes[12 + index] = UInt8(truncatingIfNeeded: sum >> (8 * UInt32(index))) }

    guard let decoded = try? ArchiveCodec.decode(bytes) else { return 0 }
    _ = ArchiveText.text(decoded)
    _ = ArchiveText.json(decoded)
    // What this build read, it writes, and reads back the same: encoding what it read again gives
    // the same bytes. (Bytes, not archives: a NaN state value is not equal to itself.)
    if let again = try? ArchiveCodec.encode(decoded.archive) {
        let redecoded = try? ArchiveCodec.decode(again)
        precondition(redecoded.flatMap { try? ArchiveCodec.encode($0.archive) } == again,
                     "an archive read from format \(version) did not survive encode + decode")
    }
    return 0
}
