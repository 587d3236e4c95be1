import Foundation
import RelaunchTestSupport
import Synchronization
import Systemd
import Testing

/// permissiond's durability: a Set it acknowledged is never lost, however it dies.
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct PermissiondDurabilityChecks {
    /// Rounds of: a writer doing Sets in a loop (each to a fresh app id without a unit, so an
    /// acknowledged Set has exactly one right answer and never kills the app), SIGKILL to permissiond
    /// while it writes, systemd restarts it, the writer gets through to the new instance; then every Set
    /// acknowledged so far (the call answered without error) must read back. Unacknowledged Sets may or
    /// may not have been committed. RELAUNCH_DURABLE_ROUNDS sets the number of rounds (default 20).
    @Test func durableUnderSigkill() throws {
        let rounds = ProcessInfo.processInfo.environment["RELAUNCH_DURABLE_ROUNDS"].flatMap { Int($0) } ?? 20
        let writer = DurableWriter(prefix: Permissiond.freshApp("pd-durable"))
        defer {
            writer.stop()
            try? Permissiond.unregister(prefix: "\(writer.prefix)-")
        }
        func acknowledgedAbove(_ count: Int) throws {
            try waitUntil("more than \(count) acknowledged Sets", timeout: .seconds(120)) {
                let state = (try? Units.property(Permissiond.daemon, "ActiveState")) ?? "unknown"
                return (writer.acknowledgedCount > count, "\(writer.progress), permissiond \(state)")
            }
        }
        for round in 1...rounds {
            try Permissiond.daemonReady()
            let count = writer.acknowledgedCount
            try writer.start()
            try acknowledgedAbove(count + 2)
            let restarts = try Units.restarts(Permissiond.daemon)
            try Command.expect(0, ["systemctl", "kill", "-s", "KILL", Permissiond.daemon])
            try waitUntil("permissiond NRestarts above \(restarts)") {
                let now = try Units.restarts(Permissiond.daemon)
                return (now > restarts, "permissiond NRestarts=\(now)")
            }
            try Permissiond.daemonReady()
            try acknowledgedAbove(writer.acknowledgedCount)
            writer.stop()
            // A lost Set is named as such; any other failure (a Get that fails) says what it was.
            let verdict = try DurableWriter.verify(writer.acknowledged)
            guard verdict.lost.isEmpty else {
                throw CheckFailure("round \(round): an acknowledged Set was lost after SIGKILL: \(verdict.lost.prefix(3).joined(separator: "; "))")
            }
            if let failure = verdict.failure {
                throw CheckFailure("round \(round): could not read the acknowledged Sets back: \(failure)")
            }
        }
        print("note: permissiond durability: \(writer.progress) across \(rounds) SIGKILLs, none lost")
    }
}

/// The durability check's writer, on a thread of its own with a bus connection of its own: for slot
/// N = 0, 1, ... it sets permission N%6 of app PREFIX-(N/6) to allowed (a slot is set once only, so an
/// acknowledged Set has exactly one right answer) until stopped, keeping each acknowledged Set. Before
/// it uses the first slot of an app not yet registered it registers the next `batch` apps (apps.d
/// files, then a reload; a permissiond restarted by a SIGKILL meanwhile reads them at its start) and
/// waits until permissiond serves them: however fast the machine, it never runs out of slots.
final class DurableWriter: Sendable {
    struct Slot: Sendable { var app, permission: String }
    private struct State {
        var acknowledged: [Slot] = []
        var next = 0
        var registered = 0
        var stopping = false
        var running: DispatchSemaphore?
        var failure: String?
    }

    let prefix: String
    let batch = 50
    static let permissions = ["camera", "microphone", "photos", "contacts", "calendars", "location"]
    private let state = Mutex(State())

    init(prefix: String) { self.prefix = prefix }

    var acknowledged: [Slot] { state.withLock { $0.acknowledged } }
    var acknowledgedCount: Int { state.withLock { $0.acknowledged.count } }

    /// How far it got, for messages.
    var progress: String {
        state.withLock {
            "\($0.acknowledged.count) acknowledged Sets, next slot \($0.next), \($0.registered) apps registered"
                + ($0.failure.map { "; the writer failed: \($0)" } ?? "")
        }
    }

    private func app(_ index: Int) -> String { prefix + "-" + String(format: "%04d", index) }
    private var stopping: Bool { state.withLock { $0.stopping } }

    /// Starts writing from the next free slot.
    func start() throws {
        let done = DispatchSemaphore(value: 0)
        state.withLock {
            $0.stopping = false
            $0.running = done
        }
        let thread = Thread { [self] in
            write()
            done.signal()
        }
        thread.start()
    }

    /// Stops writing and returns once the writer's thread has ended (its last Set answered or timed out).
    func stop() {
        let running = state.withLock { state in
            state.stopping = true
            let running = state.running
            state.running = nil
            return running
        }
        running?.wait()
    }

    private func write() {
        let bus: BusConnection
        do {
            bus = try BusConnection.system()
        } catch {
            state.withLock { $0.failure = "cannot connect to the system bus: \(error)" }
            return
        }
        func call(_ method: String, _ arguments: [String]) throws {
            try bus.call(
                destination: Bus.permissions[0], path: Bus.permissions[1], interface: Bus.permissions[2], member: method,
                arguments: arguments.map { .string($0) }, timeout: .seconds(5))
        }
        while !stopping {
            let (slot, registered) = state.withLock { ($0.next, $0.registered) }
            if slot / 6 >= registered {
                let folder = "/run/relaunch/apps.d"
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    for index in registered..<(registered + batch) {
                        try "[App]\nUnit=relaunch-check-none.service\n".write(
                            toFile: "\(folder)/\(app(index)).conf", atomically: true, encoding: .utf8)
                    }
                } catch {
                    state.withLock { $0.failure = "cannot register apps: \(error)" }
                    return
                }
                var tries = 0
                while !stopping {
                    if (try? call("Get", [app(registered + batch - 1), "camera"])) != nil { break }
                    // A reload now and then: one sent while permissiond was restarting may have gone nowhere.
                    if tries % 20 == 0 { _ = try? Command.run(["systemctl", "reload", Permissiond.daemon]) }
                    tries += 1
                    Thread.sleep(forTimeInterval: 0.1)
                }
                if stopping { break }
                state.withLock { $0.registered = registered + batch }
            }
            let target = Slot(app: app(slot / 6), permission: Self.permissions[slot % 6])
            state.withLock { $0.next = slot + 1 }
            if (try? call("Set", [target.app, target.permission, "allowed"])) != nil {
                state.withLock { $0.acknowledged.append(target) }
            }
        }
    }

    /// Reads every slot back over one bus connection: the ones not `allowed`, and what stopped the
    /// reading (a Get that failed), if anything did.
    static func verify(_ slots: [Slot]) throws -> (lost: [String], failure: String?) {
        let bus = try BusConnection.system()
        var lost: [String] = []
        for slot in slots {
            do {
                let got = try bus.call(
                    destination: Bus.permissions[0], path: Bus.permissions[1], interface: Bus.permissions[2], member: "Get",
                    arguments: [.string(slot.app), .string(slot.permission)], timeout: .seconds(25)
                ).string(at: 0)
                if got != "allowed" { lost.append("\(slot.app) \(slot.permission) is s \"\(got)\"") }
            } catch {
                return (lost, "Get \(slot.app) \(slot.permission) failed: \(error)")
            }
        }
        return (lost, nil)
    }
}
