import Foundation
import Logging
import PermissionDaemon
import PermissionStore
import RelaunchContract
import RelaunchTestSupport
import Synchronization
import Testing

/// permissiond's work (``PermissionWork``) over a real store in a temporary folder and a stand-in
/// systemd (``ScriptedUnits``), with `apps` registered as `app-N` in `app-N.service`, all running.
final class DaemonHarness: Sendable {
    let directory: TemporaryDirectory
    var folder: String { directory.path }
    let database: PermissionDatabase
    let units: ScriptedUnits
    let service: PermissionService
    let work: PermissionWork

    /// `authorizer`: who may change, and read an app the caller is not (root only by default).
    init(
        apps: Int = 1, units: ScriptedUnits = ScriptedUnits(), inlineRetryDelays: [Duration] = [.zero],
        authorizer: any Authorizer = RootOnly()
    ) throws {
        directory = try TemporaryDirectory(prefix: "permissiond-tests")
        database = try PermissionDatabase(path: directory.path + "/permissions.db")
        self.units = units
        let registrations = (0..<apps).map { AppRegistration(app: Self.app($0), unit: Self.unit($0)) }
        for index in 0..<apps { units.start(Self.unit(index)) }
        service = PermissionService(
            database: database, configuration: PermissionConfiguration(killPolicy: .ios, registry: AppRegistry(registrations)),
            units: units, authorizer: authorizer, inlineRetryDelays: inlineRetryDelays, maximumKillAttempts: 10)
        work = PermissionWork(
            service: service,
            effects: EffectPerformer(logger: Logger(label: "permissiond-tests") { _ in SwiftLogNoOpLogHandler() }))
    }

    deinit {
        try? database.close()
    }

    static func app(_ index: Int) -> String { "app-\(index)" }
    static func unit(_ index: Int) -> String { "app-\(index).service" }

    /// Takes a Set from root, as the bus server hands it over; its answer goes to `answers`.
    func set(_ index: Int, _ permission: Permission, _ state: PermissionState, answers: Answers) {
        work.write(
            .set(app: Self.app(index), permission: permission.rawValue, state: state.rawValue), interactive: false,
            identify: { Caller(uid: 0, busName: ":1.7") }, reply: { answers.add($0) })
    }

    /// Stores `state` directly (no kill, no effects).
    func preset(_ index: Int, _ permission: Permission, _ state: PermissionState) throws {
        try database.set(app: Self.app(index), permission: permission, to: state, callerUID: 0, at: 1)
    }
}

/// The answers calls got, in the order they came.
final class Answers: Sendable {
    private let received = Mutex<[Result<PermissionReply, PermissionServiceError>]>([])
    private let arrivals: AsyncStream<Void>
    private let arrival: AsyncStream<Void>.Continuation

    init() {
        (arrivals, arrival) = AsyncStream.makeStream(of: Void.self)
    }

    func add(_ answer: Result<PermissionReply, PermissionServiceError>) {
        received.withLock { $0.append(answer) }
        arrival.yield()
    }

    var all: [Result<PermissionReply, PermissionServiceError>] { received.withLock { $0 } }

    /// Waits until `count` answers came, at most `bound`.
    func wait(for count: Int, within bound: Duration = .seconds(30)) async throws {
        try await withBound(bound, "\(count) answers (got \(all.count): \(all))") {
            for await _ in self.arrivals where self.all.count >= count { return }
        }
        #expect(all.count >= count, "awaited \(count) answers, got \(all.count): \(all)")
    }
}

/// Runs `body`, or gives up after `bound` with a message saying what was awaited.
func withBound(_ bound: Duration, _ awaited: @autoclosure () -> String, _ body: @escaping @Sendable () async -> Void) async throws {
    let finished = await withTaskGroup(of: Bool.self) { group in
        group.addTask { await body(); return true }
        group.addTask {
            try? await Task.sleep(for: bound)
            return false
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
    }
    if !finished { Issue.record("gave up after \(bound) waiting for \(awaited())") }
}

/// The error `body` threw, or nil when it let the caller through.
func refusal(_ body: () async throws(PermissionServiceError) -> Void) async -> PermissionServiceError? {
    do throws(PermissionServiceError) { try await body() } catch { return error }
    return nil
}
