// An app's input over org.relaunch.App1 (Tap, Type, Background, Foreground) and the camera
// permission permissiond hands it, into checkin-demo: one call a line, `tap ELEMENT`, `type FIELD
// TEXT`, `background`, `foreground`, `camera STATE`, `relaunch` (preserve, then a fresh instance
// restores the bytes). Every line is any bytes a caller could send. The screen and state JSON are
// drawn after each line.
// fuzz-build: CheckIn
// fuzz-link: CheckIn RelaunchApp RestorationKit RelaunchContract
import CheckIn
import RelaunchApp
import RelaunchContract
import RestorationKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let clock: @Sendable () -> UInt64 = { 1_700_000_000_000_000 }
    var app = CheckInApp(buildNumber: "fuzz", camera: .denied, wallClock: clock)
    app.launch(candidates: [], restoringMark: MemoryRestoringMark())
    for line in text.split(separator: "\n", maxSplits: 64).prefix(64) {
        let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        switch words.first {
        case "tap": _ = try? app.tap(words.count > 1 ? words[1] : "")
        case "type": _ = try? app.type(words.count > 1 ? words[1] : "", words.count > 2 ? words[2] : "")
        case "background": _ = app.background()
        case "foreground": _ = app.foreground()
        case "camera": app.setCamera(PermissionState(rawValue: words.count > 1 ? words[1] : "") ?? .denied)
        case "relaunch":
            guard let bytes = try? app.preserve().bytes else { break }
            app = CheckInApp(buildNumber: "fuzz", camera: app.camera, wallClock: clock)
            app.launch(candidates: [ArchiveCandidate(source: "fuzz", bytes: bytes)], restoringMark: MemoryRestoringMark())
        default: continue
        }
        _ = app.screen()
        _ = app.stateJSON()
    }
    return 0
}
