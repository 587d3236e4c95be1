#if canImport(Glibc)
import Glibc
#endif
@testable import RelaunchHost
import RelaunchTestSupport
import Testing

/// The host's small parts: the invocation record, launch timing, fatal signals.
@Suite("The host's small parts")
struct HostPiecesTests {
    @Test("the invocation record reads back the id written, and nothing from an empty or missing file")
    func invocationRecord() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let record = InvocationRecord(directory: directory)
            #expect(record.read() == nil)
            try record.write("3f0c9e2a")
            #expect(record.read() == "3f0c9e2a")
            try record.write("")
            #expect(record.read() == nil)
        }
    }

    @Test("launch timing turns the clock's seconds and nanoseconds into microseconds")
    func microseconds() {
        #expect(LaunchTimings.microseconds(timespec(tv_sec: 2, tv_nsec: 345_678_999)) == 2_345_678)
        #expect(LaunchTimings.microseconds(timespec(tv_sec: 0, tv_nsec: 999)) == 0)
    }

    @Test("fatal signals get their default action back unless SWIFT_BACKTRACE asks for the backtracer")
    func fatalSignals() {
        #expect(RelaunchHost.fatalSignalsToDefault { _ in nil }.contains(SIGABRT))
        #expect(RelaunchHost.fatalSignalsToDefault { $0 == "SWIFT_BACKTRACE" ? "enable=yes" : nil }.isEmpty)
    }
}
