import Foundation
@testable import RelaunchHost
import Systemd
import Testing

/// The standby's decisions (pure) and its link to the running process, with real child processes.
@Suite("The standby")
struct StandbyTests {
    @Test("The end of the link without a leave is a SIGKILL: take over; a leave is not")
    func steps() {
        #expect(Standby.step(for: .end) == .takeOver)
        #expect(Standby.step(for: .tag(ProcessLink.leave, fd: nil)) == .leave)
        #expect(Standby.step(for: .tag(Standby.archive, fd: 7)) == .keepArchive(7))
        #expect(Standby.step(for: .tag(Standby.archive, fd: nil)) == .ignore(nil))
        #expect(Standby.step(for: .tag(Standby.dropArchive, fd: nil)) == .dropArchive)
        #expect(Standby.step(for: .tag(UInt8(ascii: "?"), fd: 9)) == .ignore(9))
        #expect(Standby.step(for: .tag(ProcessLink.leave, fd: 9)) == .ignore(9))
    }

    @Test("The standby gets neither systemd's passed descriptors nor the running process's watchdog pid, and binds its symbols at start")
    func environment() {
        let current = ["PATH=/usr/bin", "LISTEN_FDS=1", "LISTEN_PID=40", "LISTEN_FDNAMES=restoration-archive",
                       "WATCHDOG_USEC=5000000", "WATCHDOG_PID=40", "NOTIFY_SOCKET=/run/systemd/notify",
                       "INVOCATION_ID=abc", "RELAUNCH_STANDBY_FOR=39", "LD_BIND_NOW=1"]
        #expect(Standby.environment(current, standingBy: 40) == [
            "PATH=/usr/bin", "WATCHDOG_USEC=5000000", "NOTIFY_SOCKET=/run/systemd/notify", "INVOCATION_ID=abc",
            "RELAUNCH_STANDBY_FOR=40", "LD_BIND_NOW=1",
        ])
    }

    @Test("A kill request is carried out only for the pid the standby stands by for")
    func killRequestNamesThePinnedProcess() {
        #expect(KillRequests.names(40, BusValues([.string("checkin-demo.service"), .uint32(40)])))
        #expect(!KillRequests.names(40, BusValues([.string("checkin-demo.service"), .uint32(41)])))
        #expect(!KillRequests.names(40, BusValues([.string("checkin-demo.service")])))
        #expect(!KillRequests.names(40, BusValues([.string("checkin-demo.service"), .string("40")])))
    }

    @Test("--standby makes the standby; RELAUNCH_STANDBY=1 makes an app keep one")
    func configuration() throws {
        let plain = try #require(try HostConfigurationTests.load([]))
        #expect(!plain.isStandby && !plain.keepsStandby)
        let standby = try #require(try HostConfigurationTests.load([Standby.argument], ["RELAUNCH_STANDBY": "1"]))
        #expect(standby.isStandby && standby.keepsStandby)
    }

    @Test("A child spawned with the link has it as descriptor 3 and nothing else beyond 0-2")
    func spawnedWithTheLinkOnly() throws {
        let leaked = open("/dev/null", O_RDONLY)  // not close-on-exec: closefrom must still close it
        defer { close(leaked) }
        #expect(leaked > 3)
        let (link, pid) = try ProcessLink.spawn(
            "/bin/sh", arguments: ["sh", "-c", "if [ -e /proc/self/fd/\(leaked) ]; then printf Y >&3; else printf N >&3; fi"],
            environment: [])
        defer { reap(pid) }
        // The child could write to its descriptor 3, and has no copy of the descriptor left open here.
        #expect(try link.receive() == .tag(UInt8(ascii: "N"), fd: nil))
    }

    @Test("A message carries a descriptor across; a SIGKILLed child ends the stream; a child's exit does too")
    func linkEnds() throws {
        let (link, pid) = try ProcessLink.spawn("/bin/sleep", arguments: ["sleep", "60"], environment: [])
        let file = open("/dev/null", O_RDONLY)
        defer { close(file) }
        try link.send(Standby.archive, fd: file)
        kill(pid, SIGKILL)
        reap(pid)
        #expect(try link.receive() == .end)

        let (said, speaker) = try ProcessLink.spawn("/bin/sh", arguments: ["sh", "-c", "printf L >&3"], environment: [])
        reap(speaker)
        #expect(try said.receive() == .tag(ProcessLink.leave, fd: nil))
        #expect(try said.receive() == .end)
    }

    private func reap(_ pid: Int32) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }
}
