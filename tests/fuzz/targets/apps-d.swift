// An apps.d registration file (/etc/relaunch/apps.d/APP.conf), as permissiond, relaunchctl and the
// host read it: the first line is the file name's app id, the rest the file's text.
// fuzz-build: RelaunchContract
// fuzz-link: RelaunchContract
import RelaunchContract

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let newline = text.firstIndex(of: "\n") ?? text.endIndex
    let app = String(text[..<newline])
    let body = newline == text.endIndex ? "" : String(text[text.index(after: newline)...])
    if let registration = try? AppRegistry.parse(body, app: app, file: app + ".conf") {
        _ = AppRegistry([registration]).ids
    }
    _ = try? AppRegistry.parse(text, app: "checkin-demo", file: "checkin-demo.conf")
    return 0
}
