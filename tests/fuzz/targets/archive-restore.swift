// A saved archive restored into the app that finds it at launch: the bytes an app's state folder
// holds (anyone who can write there, or a damaged disk) into a seed app's restoration. The first
// byte picks the format (byte % 3 + 1; format 4, with scene sessions, from 0xF0 on) and the app
// (byte / 3 % 4: checkin-demo, banca-demo, countries-demo, colorboard-demo), the rest is the
// payload, framed with a right prefix as in
// archive-payload. The app restores what it can, draws its screen and state, then preserves again.
// fuzz-build: CheckIn Banca Countries Colorboard
// fuzz-link: CheckIn Banca Countries Colorboard RelaunchApp RestorationKit RelaunchContract
import Banca
import CheckIn
import Colorboard
import Countries
import RelaunchApp
import RelaunchContract
@testable import RestorationKit

let clock: @Sendable () -> UInt64 = { 1_700_000_000_000_000 }

func restore<App: HostableApp>(_ app: App, _ bytes: [UInt8]) {
    app.launch(candidates: [ArchiveCandidate(source: "fuzz", bytes: bytes)], restoringMark: MemoryRestoringMark())
    _ = app.screen()
    _ = app.stateJSON()
    _ = app.elements()
    _ = try? app.preserve()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let version = data[0] >= 0xF0 ? ArchiveCodec.sceneFormatVersion : UInt16(data[0] % 3 + 1)
    let payload = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var bytes = ArchiveCodec.magic
    bytes += [UInt8(version), 0, 0, 0]
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: payload.count >> shift)) }
    bytes += [0, 0, 0, 0]
    bytes += payload
    let sum = ArchiveCodec.checksum(of: bytes)
    for index in 0..<4 { bytes[12 + index] = UInt8(truncatingIfNeeded: sum >> (8 * UInt32(index))) }
    // The seeds were written by build "bench": the same build reads them.
    switch data[0] / 3 % 4 {
    case 1: restore(BancaApp(buildNumber: "bench", camera: .allowed, wallClock: clock), bytes)
    case 2: restore(CountriesApp(buildNumber: "bench", location: .allowed, wallClock: clock), bytes)
    case 3: restore(ColorboardApp(buildNumber: "bench", photos: .allowed, wallClock: clock), bytes)
    default: restore(CheckInApp(buildNumber: "bench", camera: .allowed, wallClock: clock), bytes)
    }
    return 0
}
