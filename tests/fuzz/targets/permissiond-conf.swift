// /etc/relaunch/permissiond.conf as permissiond reads it at start and on reload.
// fuzz-build: RelaunchContract
// fuzz-link: RelaunchContract
import RelaunchContract

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? PermissionConfiguration.parse(text, file: "permissiond.conf")
    return 0
}
