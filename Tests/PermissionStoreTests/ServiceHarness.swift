import RelaunchContract
import RelaunchTestSupport
import Synchronization
@testable import PermissionStore

/// A service over a fresh database in a temporary directory, a fake systemd and a ticking clock.
struct ServiceHarness {
    static let app = "checkin-demo"
    static let unit = "checkin-demo.service"

    let directory: TemporaryDirectory
    let database: PermissionDatabase
    let units: FakeUnitController
    let service: PermissionService

    /// - Parameters:
    ///   - policy: the kill policy; `checkin-demo` is configured with `checkin-demo.service`.
    ///   - units: the fake systemd; by default with `checkin-demo.service` running.
    init(
        policy: KillPolicy = .ios, units: FakeUnitController = FakeUnitController(active: [unit])
    ) throws {
        directory = try TemporaryDirectory(prefix: "permissionstore-tests")
        database = try directory.openDatabase()
        self.units = units
        let clock = Mutex<UInt64>(1_000)
        service = PermissionService(
            database: database,
            configuration: PermissionConfiguration(
                killPolicy: policy,
                registry: AppRegistry([
                    AppRegistration(app: Self.app, unit: Self.unit),
                    // An app of its own policy that uses two permissions.
                    AppRegistration(app: "maps", unit: "maps.service", permissions: [.camera, .photos], killPolicy: .android),
                ])),
            units: units,
            now: { clock.withLock { $0 += 1; return $0 } },
            inlineRetryDelays: [.zero, .zero, .zero], maximumKillAttempts: 3)
    }

    /// Performs `request` for `uid` (root by default). Who may make it is permissiond's access
    /// check, from the interface's table (PermissionDaemonTests' PermissionsAccessTests).
    func handle(_ request: PermissionRequest, as uid: UInt32 = 0) async -> PermissionOutcome {
        await service.perform(request, caller: Caller(uid: uid))
    }

    /// Stores `state` directly, bypassing the service (no kill, no effects).
    func preset(_ permission: Permission, _ state: PermissionState, app: String = app) throws {
        try database.set(app: app, permission: permission, to: state, callerUID: 0, at: 1)
    }
}

extension PermissionOutcome {
    /// The error, if the reply is one.
    var error: PermissionServiceError? {
        if case .failure(let error) = reply { error } else { nil }
    }

    /// The kills among the effects.
    var kills: [KillRecord] {
        effects.compactMap { if case .killed(let kill) = $0 { kill } else { nil } }
    }

    /// The journal entries among the effects.
    var logs: [JournalEntry] {
        effects.compactMap { if case .log(let entry) = $0 { entry } else { nil } }
    }

    /// The signals among the effects.
    var signals: [ChangedSignal] {
        effects.compactMap { if case .emitChanged(let signal) = $0 { signal } else { nil } }
    }
}
