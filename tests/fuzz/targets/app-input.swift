// An app's input over org.relaunch.App1 (Tap, Type, Background, Foreground, Quit), the permission
// permissiond hands it, and the data it saved, into the four seed apps. The first line names the
// app (checkin-demo, banca-demo, countries-demo, colorboard-demo; another: checkin-demo), then one
// call a line: `tap ELEMENT`, `type FIELD TEXT`, `background`, `foreground`, `quit`, `permission
// STATE`, `data BYTES` (loadData before a relaunch), `relaunch` (preserve, then a fresh instance
// restores the bytes). Every word is any bytes a caller could send. The screen, the state JSON and
// the elements are drawn after each line.
// fuzz-build: CheckIn Banca Countries Colorboard
// fuzz-link: CheckIn Banca Countries Colorboard RelaunchApp RestorationKit RelaunchContract
import Banca
import CheckIn
import Colorboard
import Countries
import RelaunchApp
import RelaunchContract
import RestorationKit

let clock: @Sendable () -> UInt64 = { 1_700_000_000_000_000 }

func drive<App: HostableApp>(_ make: () -> App, _ lines: ArraySlice<Substring>) {
    var app = make()
    var data: [UInt8]?
    app.launch(candidates: [], restoringMark: MemoryRestoringMark())
    for line in lines.prefix(64) {
        let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        func word(_ index: Int) -> String { index < words.count ? words[index] : "" }
        switch word(0) {
        case "tap": _ = try? app.tap(word(1))
        case "type": _ = try? app.type(word(1), word(2))
        case "background": _ = app.background()
        case "foreground": _ = app.foreground()
        case "quit": _ = app.quit()
        case "permission":
            for permission in App.permissions { app.setPermission(permission, to: PermissionState(rawValue: word(1)) ?? .denied) }
        case "data": data = Array(line.utf8.dropFirst(5))
        case "relaunch":
            guard let bytes = try? app.preserve().bytes else { break }
            app = make()
            if let data { try? app.loadData(data) }
            app.launch(candidates: [ArchiveCandidate(source: "fuzz", bytes: bytes)], restoringMark: MemoryRestoringMark())
        default: continue
        }
        _ = app.screen()
        _ = app.stateJSON()
        _ = app.statusLine()
        _ = app.elements()
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let calls = lines.dropFirst()
    switch lines.first {
    case "banca-demo": drive({ BancaApp(buildNumber: "fuzz", camera: .denied, wallClock: clock) }, calls)
    case "countries-demo": drive({ CountriesApp(buildNumber: "fuzz", location: .denied, wallClock: clock) }, calls)
    case "colorboard-demo": drive({ ColorboardApp(buildNumber: "fuzz", photos: .denied, wallClock: clock) }, calls)
    default: drive({ CheckInApp(buildNumber: "fuzz", camera: .denied, wallClock: clock) }, calls)
    }
    return 0
}
