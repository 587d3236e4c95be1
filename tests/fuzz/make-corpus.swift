// Writes the generated seed inputs of tests/fuzz/corpus/: the seed scenario's archive (check-in
// modal open, note typed: relaunch-bench's), in formats 3, 2 and 1, for archive-dump (whole files)
// and archive-payload (format byte + payload), each seed app's for archive-restore; and journals as the live system writes them
// (Tests/JournalReviewTests/JournalMaker.swift) for journal. Built and run by hand when the formats
// change:
//   tests/fuzz/run 1 archive-restore journal   # builds the modules
//   B=.build-fuzz/release; swiftc -sanitize=address -parse-as-library -I $B/Modules \
//     tests/fuzz/make-corpus.swift Tests/JournalReviewTests/JournalMaker.swift \
//     $B/{CheckIn,Banca,Countries,Colorboard,RelaunchApp,RestorationKit,RelaunchContract,JournalReview}.build/*.o \
//     /opt/swift/usr/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a -lstdc++ -o .build-fuzz/make-corpus
//   .build-fuzz/make-corpus tests/fuzz/corpus
import Banca
import CheckIn
import Colorboard
import Countries
import Glibc
import JournalReview
import RelaunchApp
import RelaunchContract
@testable import RestorationKit

// The modules are instrumented for libFuzzer: linked with its runtime without its main, which may
// still want an entry.
@_cdecl("LLVMFuzzerTestOneInput")
public func unused(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 { 0 }

func write(_ bytes: [UInt8], _ path: String) {
    guard let file = fopen(path, "wb") else { fatalError("cannot write \(path)") }
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
}

/// `bytes` with the prefix's length and checksum made right again.
func resealed(_ bytes: [UInt8]) -> [UInt8] {
    var bytes = bytes
    let length = bytes.count - ArchiveCodec.prefixSize
    for index in 0..<4 { bytes[8 + index] = UInt8(truncatingIfNeeded: length >> (8 * index)) }
    let sum = ArchiveCodec.checksum(of: bytes)
    for index in 0..<4 { bytes[12 + index] = UInt8(truncatingIfNeeded: sum >> (8 * UInt32(index))) }
    return bytes
}

@main
enum MakeCorpus {
    static func main() throws {
        let out = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "tests/fuzz/corpus"
        let app = CheckInApp(buildNumber: "bench", camera: .denied, wallClock: { 1_700_000_000_000_000 })
        app.launch(candidates: [], restoringMark: MemoryRestoringMark())
        try app.tap("venue:blue-bottle")
        try app.tap("tab:check-in")
        try app.tap("check-in")
        try app.type("party-size", "4")
        try app.type("note", "Window seat please, we are bringing a birthday cake for Sam.")
        try app.tap("scan")
        let three = try app.preserve().bytes
        let archive = try ArchiveCodec.decode(three).archive
        let two = try ArchiveCodec.encode(archive, formatVersion: 2)
        // Format 1: format 2 without the object count at the end.
        var one = Array(two.dropLast(4))
        one[4] = 1
        one = resealed(one)
        let empty = try ArchiveCodec.encode(RestorationArchive(
            header: ArchiveHeader(buildVersion: "1", timestamp: 5, generation: 2), applicationState: ["k": .int(1)], controllers: []))
        for (name, bytes) in [("seed-format3", three), ("seed-format2", two), ("seed-format1", one), ("empty-format3", empty)] {
            write(bytes, "\(out)/archive-dump/\(name).archive")
            // archive-payload: the first byte picks the format (byte % 3 + 1).
            write([UInt8(bytes[4] - 1)] + bytes[ArchiveCodec.prefixSize...], "\(out)/archive-payload/\(name).payload")
        }
        // archive-restore: each seed app's archive after the taps of its scenario; the first byte
        // picks the format (3) and the app (byte / 3 % 4).
        func saved<App: HostableApp>(_ app: App, _ calls: [(String, String?)]) throws -> [UInt8] {
            _ = app.launch(candidates: [], restoringMark: MemoryRestoringMark())
            for (element, text) in calls {
                if let text { _ = try app.type(element, text) } else { _ = try app.tap(element) }
            }
            return try app.preserve().bytes
        }
        let clock: @Sendable () -> UInt64 = { 1_700_000_000_000_000 }
        let apps: [(String, [UInt8])] = [
            ("checkin-demo", three),
            ("banca-demo", try saved(BancaApp(buildNumber: "bench", camera: .allowed, wallClock: clock),
                                     [("amount", "250"), ("currencies:to", nil), ("scroll-down", nil), ("currency:GBP", nil)])),
            ("countries-demo", try saved(CountriesApp(buildNumber: "bench", location: .allowed, wallClock: clock),
                                         [("scroll-down", nil), ("country:Vienna", nil)])),
            ("colorboard-demo", try saved(ColorboardApp(buildNumber: "bench", photos: .allowed, wallClock: clock),
                                          [("color:c1", nil), ("name", "Midnight"), ("blue", "0.4")])),
        ]
        for (index, (name, bytes)) in apps.enumerated() {
            write([UInt8(index * 3 + Int(bytes[4]) - 1)] + bytes[ArchiveCodec.prefixSize...], "\(out)/archive-restore/\(name).payload")
        }
        for (seed, incidents) in [(UInt64(1), 2), (2, 4), (3, 8)] {
            var text = ""
            for record in JournalMaker.journal(seed: seed, incidents: incidents) {
                text += "__REALTIME_TIMESTAMP=\(record.realtimeUSec)\n"
                for (name, value) in record.fields.sorted(by: { $0.key < $1.key }) { text += "\(name)=\(value)\n" }
                text += "\n"
            }
            // journal: the first byte picks permissiond's user (even: uid 991, JournalMaker's).
            write([seed % 2 == 0 ? 0 : 1] + Array(text.utf8), "\(out)/journal/maker-\(seed).journal")
        }
    }
}
