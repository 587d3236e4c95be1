import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// What systemd reports about a unit (from `org.freedesktop.systemd1.Unit` and `.Service`).
package struct UnitStatus: Sendable, Hashable {
    /// The unit's name, e.g. `myapp.service`.
    package var name: String
    /// `active`, `reloading`, `inactive`, `failed`, `activating`, `deactivating`.
    package var activeState: String
    /// The type-specific state, e.g. `running`, `auto-restart`, `dead`.
    package var subState: String
    /// The current invocation id as 32 lowercase hex digits (`$INVOCATION_ID`), or `""` if none.
    package var invocationID: String
    /// The main process id, 0 if none.
    package var mainPID: UInt32
    /// How often systemd restarted the service automatically.
    package var restartCount: UInt32

    /// Whether a process of the unit may be running: `active`, `reloading` or `activating`.
    package var isRunning: Bool { ["active", "reloading", "activating"].contains(activeState) }
}

/// Typed helpers for `org.freedesktop.systemd1.Manager` and unit properties.
///
/// Works on the system bus (``BusConnection/system()``) or systemd's private socket
/// (``BusConnection/systemdPrivate(path:)``).
package struct SystemdManager: Sendable {
    /// `org.freedesktop.systemd1`
    package static let destination = "org.freedesktop.systemd1"
    /// `/org/freedesktop/systemd1`
    package static let path = "/org/freedesktop/systemd1"
    /// `org.freedesktop.systemd1.Manager`
    package static let managerInterface = "org.freedesktop.systemd1.Manager"
    /// `org.freedesktop.systemd1.NoSuchUnit`: the unit is not loaded.
    package static let noSuchUnitErrorName = "org.freedesktop.systemd1.NoSuchUnit"

    /// The connection calls go through.
    package let connection: BusConnection

    /// Talks to systemd over `connection`.
    package init(connection: BusConnection) {
        self.connection = connection
    }

    /// The object path systemd serves `unit` at, computed as systemd does (`sd_bus_path_encode`):
    /// no round trip. systemd loads the unit on the first call to that path if it must.
    package static func unitObjectPath(_ unit: String) -> String {
        var encoded: UnsafeMutablePointer<CChar>?
        guard sd_bus_path_encode("/org/freedesktop/systemd1/unit", unit, &encoded) >= 0, let encoded else {
            return "/org/freedesktop/systemd1/unit/_"
        }
        defer { free(encoded) }
        return String(cString: encoded)
    }

    /// The unit name a unit object path stands for (the reverse of ``unitObjectPath(_:)``), or nil
    /// for a path that is not a unit's.
    package static func unitName(fromObjectPath path: String) -> String? {
        var decoded: UnsafeMutablePointer<CChar>?
        guard sd_bus_path_decode(path, "/org/freedesktop/systemd1/unit", &decoded) > 0, let decoded else { return nil }
        defer { free(decoded) }
        let name = String(cString: decoded)
        return name.isEmpty ? nil : name
    }

    /// The object path of a loaded unit (`GetUnit`).
    /// - Throws: ``BusError`` named ``noSuchUnitErrorName`` when the unit is not loaded.
    package func unitPath(_ unit: String) throws(BusError) -> String {
        try callManager("GetUnit", [.string(unit)]).string(at: 0)
    }

    /// Sends `signal` to the unit's processes (`KillUnit`); `whom` is `main`, `control` or `all`.
    package func killUnit(_ unit: String, whom: String = "main", signal: Int32 = 9) throws(BusError) {
        try callManager("KillUnit", [.string(unit), .string(whom), .int32(signal)])
    }

    /// Queues a start, stop or restart of `unit` (`StartUnit`, `StopUnit`, `RestartUnit` with mode
    /// `replace`) and waits until that job is done, as `systemctl start|stop|restart` does.
    ///
    /// - Throws: ``BusError``: systemd refused, or the job outlived `timeout`.
    package func run(_ verb: UnitVerb, _ unit: String, timeout: Duration) throws(BusError) {
        let job = try callManager(verb.member, [.string(unit), .string("replace")]).objectPath(at: 0)
        try waitForJob(job, timeout: timeout, what: "\(verb.member) \(unit)")
    }

    /// What ``run(_:_:timeout:)`` does to a unit.
    package enum UnitVerb: Sendable {
        case start, stop, restart

        var member: String {
            switch self {
            case .start: "StartUnit"
            case .stop: "StopUnit"
            case .restart: "RestartUnit"
            }
        }
    }

    /// Waits until the job object at `path` is gone (the job finished, whatever its result).
    func waitForJob(_ path: String, timeout: Duration, what: String) throws(BusError) {
        let deadline = ContinuousClock.now + timeout
        while true {
            do throws(BusError) {
                _ = try property(path, "org.freedesktop.systemd1.Job", "State")
            } catch {
                if error.name == BusError.unknownObjectName || error.name == "org.freedesktop.DBus.Error.UnknownMethod"
                    || error.name == "org.freedesktop.systemd1.NoSuchJob"
                {
                    return
                }
                throw error
            }
            guard ContinuousClock.now < deadline else {
                throw BusError(name: BusError.noReplyName, message: "\(what) did not finish within \(timeout)")
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&pause, nil)
        }
    }

    /// `systemctl daemon-reload` (`Reload`): systemd reads unit files and drop-ins again.
    package func reload() throws(BusError) {
        try connection.call(
            destination: Self.destination, path: Self.path, interface: Self.managerInterface, member: "Reload",
            timeout: .seconds(90))
    }

    /// `systemctl reset-failed UNIT` (`ResetFailedUnit`); a unit that is not loaded is fine.
    package func resetFailed(_ unit: String) throws(BusError) {
        do throws(BusError) {
            try callManager("ResetFailedUnit", [.string(unit)])
        } catch where error.name == Self.noSuchUnitErrorName {
        }
    }

    /// A property of the unit as `systemctl show -P NAME` prints it: strings as they are, numbers
    /// in decimal, booleans as yes/no; looked up on the Unit interface, then the Service interface.
    package func propertyText(_ unit: String, _ name: String) throws(BusError) -> String {
        let path = Self.unitObjectPath(unit)
        var value: BusValue
        do throws(BusError) {
            value = try property(path, "org.freedesktop.systemd1.Unit", name)
        } catch {
            value = try property(path, "org.freedesktop.systemd1.Service", name)
        }
        switch value {
        case .bool(let flag): return flag ? "yes" : "no"
        case .string(let text), .objectPath(let text), .signature(let text): return text
        case .array(_, let elements) where elements.allSatisfy({ $0.signature == "y" }):
            return Self.hex(value.bytesValue ?? [])
        case .array(_, let elements) where elements.allSatisfy({ $0.signature == "s" }):
            return elements.compactMap(\.stringValue).joined(separator: " ")
        default:
            if let number = value.uint64Value { return String(number) }
            if case .int32(let number) = value { return String(number) }
            if case .int64(let number) = value { return String(number) }
            return "\(value)"
        }
    }

    /// The unit's state, or nil when systemd has not loaded it (never started since boot, or gone).
    package func unitStatus(_ unit: String) throws(BusError) -> UnitStatus? {
        let path: String
        do throws(BusError) {
            path = try unitPath(unit)
        } catch where error.name == Self.noSuchUnitErrorName {
            return nil
        }
        let unitInterface = "org.freedesktop.systemd1.Unit"
        let serviceInterface = "org.freedesktop.systemd1.Service"
        let isService = unit.hasSuffix(".service")
        return UnitStatus(
            name: unit,
            activeState: try property(path, unitInterface, "ActiveState").stringValue ?? "",
            subState: try property(path, unitInterface, "SubState").stringValue ?? "",
            invocationID: Self.hex(try property(path, unitInterface, "InvocationID").bytesValue ?? []),
            mainPID: isService ? UInt32(try property(path, serviceInterface, "MainPID").uint64Value ?? 0) : 0,
            restartCount: isService ? UInt32(try property(path, serviceInterface, "NRestarts").uint64Value ?? 0) : 0
        )
    }

    /// The unit's `ActiveState`, or `inactive` when it is not loaded.
    package func activeState(_ unit: String) throws(BusError) -> String {
        try unitStatus(unit)?.activeState ?? "inactive"
    }

    /// The unit's `InvocationID` as hex, or `""` when it is not loaded or has none.
    package func invocationID(_ unit: String) throws(BusError) -> String {
        guard let path = try? unitPath(unit) else { return "" }
        return Self.hex(try property(path, "org.freedesktop.systemd1.Unit", "InvocationID").bytesValue ?? [])
    }

    /// Lowercase hex of `bytes` (how `$INVOCATION_ID` is written).
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    @discardableResult
    private func callManager(_ member: String, _ arguments: [BusValue]) throws(BusError) -> BusValues {
        try connection.call(
            destination: Self.destination, path: Self.path, interface: Self.managerInterface,
            member: member, arguments: arguments
        )
    }

    private func property(_ path: String, _ interface: String, _ name: String) throws(BusError) -> BusValue {
        try connection.property(destination: Self.destination, path: path, interface: interface, name: name)
    }
}
