// A scenario file (scenarios/*.scenario) as `relaunchctl scenario run` parses it before running.
// fuzz-build: ScenarioKit
// fuzz-link: ScenarioKit RelaunchctlCore RelaunchDriver RelaunchBus RelaunchContract Systemd CSDBus Logging
// fuzz-flags: -Xcc -fmodule-map-file=$BUILD/CSDBus.build/module.modulemap -Xcc -fmodule-map-file=Sources/CSystemd/module.modulemap
// fuzz-libs: -lsystemd
import ScenarioKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? Scenario.parse(text, name: "fuzz.scenario")
    return 0
}
