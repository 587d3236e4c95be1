import Testing
@testable import Systemd

@Suite("Notify message formatting")
struct NotifyStateTests {
    @Test func singleStates() {
        #expect(NotifyState.message([.ready]) == "READY=1")
        #expect(NotifyState.message([.stopping]) == "STOPPING=1")
        #expect(NotifyState.message([.watchdog]) == "WATCHDOG=1")
        #expect(NotifyState.message([.reloading]) == "RELOADING=1")
        #expect(NotifyState.message([.watchdogTrigger]) == "WATCHDOG=trigger")
        #expect(NotifyState.message([.mainPID(42)]) == "MAINPID=42")
        #expect(NotifyState.message([.errno(5)]) == "ERRNO=5")
        #expect(NotifyState.message([.extendTimeout(microseconds: 5_000_000)]) == "EXTEND_TIMEOUT_USEC=5000000")
    }

    @Test func combinedStatesJoinWithNewlines() {
        #expect(NotifyState.message([.ready, .status("Restored 4 controllers")])
            == "READY=1\nSTATUS=Restored 4 controllers")
    }

    @Test func statusIsOneLine() {
        #expect(NotifyState.message([.status("a\nb\r\nc")]) == "STATUS=a b c")
    }

    @Test func fileDescriptorStore() {
        #expect(NotifyState.message([.fdStore(name: "restoration")]) == "FDSTORE=1\nFDNAME=restoration")
        #expect(NotifyState.message([.fdStoreRemove(name: "restoration")]) == "FDSTOREREMOVE=1\nFDNAME=restoration")
    }

    @Test func emptyMessage() {
        #expect(NotifyState.message([]) == "")
    }

    @Test(arguments: [("restoration", true), ("a-b.c_1", true), ("", false), ("a:b", false),
                      ("a b", false), ("a\nb", false), (String(repeating: "x", count: 256), false)])
    func fileDescriptorNames(name: String, valid: Bool) {
        #expect(NotifyState.isValidFileDescriptorName(name) == valid)
    }
}
