// A restoration archive file as `relaunchctl archive dump` reads it: decoded with the app's limits,
// its generation read without decoding, then drawn as text and as JSON. Most inputs stop at the
// checksum; archive-payload reaches the payload decoders.
// fuzz-build: RestorationKit RelaunchContract
// fuzz-link: RestorationKit RelaunchContract
// fuzz-sources: Sources/relaunchctl/ArchiveText.swift Sources/relaunchctl/ArchiveText+Scenes.swift Sources/relaunchctl/JSONString.swift
import RestorationKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = ArchiveCodec.generation(of: bytes)
    guard let decoded = try? ArchiveCodec.decode(bytes) else { return 0 }
    _ = ArchiveText.text(decoded)
    _ = ArchiveText.json(decoded)
    return 0
}
