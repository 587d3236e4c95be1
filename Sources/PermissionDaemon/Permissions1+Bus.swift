import PermissionStore
import RelaunchContract
import Systemd

// The org.relaunch.Permissions1 wire format: D-Bus calls to PermissionRequest and back.

extension PermissionRequest {
    /// The request a `Permissions1` method call makes; sd-bus has already checked the signature.
    ///
    /// - Throws: `UnknownMethod` for a member the vtable has but this daemon does not serve (a bug).
    init(_ call: BusMethodCall) throws(BusError) {
        let arguments = call.arguments
        switch call.member {
        case "Get":
            self = .get(app: try arguments.string(at: 0), permission: try arguments.string(at: 1))
        case "List":
            self = .list(app: try arguments.string(at: 0))
        case "ListApps":
            self = .listApps
        case "Set":
            self = .set(
                app: try arguments.string(at: 0), permission: try arguments.string(at: 1),
                state: try arguments.string(at: 2))
        case "Reset":
            self = .reset(app: try arguments.string(at: 0), permission: try arguments.string(at: 1))
        case "LastKill":
            self = .lastKill(app: try arguments.string(at: 0))
        case "Lifecycle":
            self = .lifecycle(app: try arguments.string(at: 0), lifecycle: try arguments.string(at: 1))
        default:
            throw BusError(
                name: BusError.unknownMethodName,
                message: "\(call.interface.name) has no method '\(call.member)' in permissiond; "
                    + "accepted: Get, List, ListApps, Set, Reset, LastKill, Lifecycle")
        }
    }
}

extension PermissionReply {
    /// The D-Bus reply, in the output signature of its method (`s`, `a{ss}`, `as`, none, `(sssst)`).
    var busReply: BusReply {
        switch self {
        case .state(let state):
            return .string(state.rawValue)
        case .states(let states):
            var raw: [String: String] = [:]
            for (permission, state) in states { raw[permission.rawValue] = state.rawValue }
            return BusReply(.stringDictionary(raw))
        case .apps(let apps):
            return BusReply(.stringArray(apps))
        case .done:
            return .empty
        case .lastKill(let kill):
            // No kill yet: ("", "", "", "", 0), as the interface documents.
            return BusReply(.structure([
                .string(kill?.invocationID ?? ""), .string(kill?.permission.rawValue ?? ""),
                .string(kill?.old.rawValue ?? ""), .string(kill?.new.rawValue ?? ""), .uint64(kill?.at ?? 0),
            ]))
        }
    }
}

extension PermissionServiceError {
    /// The D-Bus error reply: the service's error name and its message.
    var busError: BusError {
        BusError(name: dbusName, message: message)
    }
}

extension ChangedSignal {
    /// The body of `Changed(s app, s permission, s old_state, s new_state, b killed)`.
    var busArguments: [BusValue] {
        [.string(app), .string(permission.rawValue), .string(old.rawValue), .string(new.rawValue), .bool(killed)]
    }
}
