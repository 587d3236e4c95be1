// D-Bus arguments into org.relaunch.Permissions1 (Get, List, ListApps, Set, Reset, LastKill) as
// permissiond's handlers pass them on: each line one call, its arguments apart by tabs, `root` or
// `app` first (root, or uid 993 running in checkin-demo.service), e.g. `root<TAB>set<TAB>checkin-demo
// <TAB>camera<TAB>allowed`. Every input gets a fresh database in a temporary folder, a systemd that
// says every unit runs and a fixed clock; the calls are validated, performed (stored, killed) and read
// back. Who may call what is permissiond's access check, tried for every method, caller and polkit
// answer by PermissionDaemonTests' PermissionsAccessTests.
// fuzz-build: PermissionStore
// fuzz-link: PermissionStore RelaunchContract GRDB
// fuzz-flags: -Xcc -fmodule-map-file=$CHECKOUTS/GRDB.swift/Sources/GRDBSQLite/module.modulemap
// fuzz-libs: -lsqlite3
import Dispatch
import Glibc
import PermissionStore
import RelaunchContract

/// A systemd in which every unit runs one instance, which every kill reaches.
struct EveryUnitRuns: UnitController {
    func runningInstance(of unit: String) async throws -> String? { "0123456789abcdef0123456789abcdef" }
    func kill(unit: String, instance: String) async throws -> KillDelivery { .killed }
}

final class Box<T>: @unchecked Sendable { var value: T?; init() {} }

/// The answer of `body`, waited for on this thread.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = Box<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        box.value = await body()
        done.signal()
    }
    done.wait()
    return box.value!
}

let folder: String = {
    // In memory when it can: a database per input, and fsync on tmpfs costs nothing.
    let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    var template = Array((base + "/relaunch-fuzz-permissions.XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed") }
    // libFuzzer ends a campaign with exit(): the folder goes with it (a crash's run leaves it).
    atexit {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(folder + "/permissions.sqlite" + suffix) }
        rmdir(folder)
    }
    return String(cString: made)
}()

let configuration = PermissionConfiguration(
    killPolicy: .ios,
    registry: AppRegistry([
        AppRegistration(app: "checkin-demo", unit: "checkin-demo.service"),
        AppRegistration(app: "maps", unit: "maps.service", permissions: [.camera, .photos], killPolicy: .android),
    ]))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let path = folder + "/permissions.sqlite"
    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    guard let database = try? PermissionDatabase(path: path) else { fatalError("cannot open \(path)") }
    defer { try? database.close() }
    let service = PermissionService(
        database: database, configuration: configuration, units: EveryUnitRuns(), now: { 1_700_000_000_000_000 },
        inlineRetryDelays: [.zero], maximumKillAttempts: 2)
    for line in text.split(separator: "\n").prefix(32) {
        let words = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        func word(_ index: Int) -> String { index < words.count ? words[index] : "" }
        let caller = word(0) == "root" ? Caller(uid: 0) : Caller(uid: 993, busName: ":1.7", unit: "checkin-demo.service")
        let request: PermissionRequest
        switch word(1) {
        case "get": request = .get(app: word(2), permission: word(3))
        case "list": request = .list(app: word(2))
        case "apps": request = .listApps
        case "set": request = .set(app: word(2), permission: word(3), state: word(4))
        case "reset": request = .reset(app: word(2), permission: word(3))
        case "lastkill": request = .lastKill(app: word(2))
        default: continue
        }
        _ = service.read(request)
        _ = blocking { await service.perform(request, caller: caller) }
    }
    return 0
}
