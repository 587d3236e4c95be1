// /etc/relaunch/permissiond.conf as permissiond reads it at start and on reload.
// fuzz-build: PermissionStore
// fuzz-link: PermissionStore RelaunchContract GRDB
// fuzz-flags: -Xcc -fmodule-map-file=$CHECKOUTS/GRDB.swift/Sources/GRDBSQLite/module.modulemap
// fuzz-libs: -lsqlite3
import PermissionStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? PermissionConfiguration.parse(text, file: "permissiond.conf")
    return 0
}
