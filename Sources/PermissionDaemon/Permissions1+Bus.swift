package import PermissionStore
package import RelaunchBus
import RelaunchContract
package import Systemd

// The org.relaunch.Permissions1 wire format: a call of a method of its table (Permissions1Method)
// to a PermissionRequest, and the answer back.

extension PermissionRequest {
    /// The request a call of `method` makes, with its arguments (sd-bus has already checked their
    /// signature against the method's row); nil for TestHook, which the store does not answer
    /// (``TestHooks``).
    package init?(_ method: Permissions1Method, _ arguments: BusValues) throws(BusError) {
        switch method {
        case .get:
            self = .get(app: try arguments.string(at: 0), permission: try arguments.string(at: 1))
        case .list:
            self = .list(app: try arguments.string(at: 0))
        case .listApps:
            self = .listApps
        case .set:
            self = .set(
                app: try arguments.string(at: 0), permission: try arguments.string(at: 1),
                state: try arguments.string(at: 2))
        case .reset:
            self = .reset(app: try arguments.string(at: 0), permission: try arguments.string(at: 1))
        case .lastKill:
            self = .lastKill(app: try arguments.string(at: 0))
        case .lifecycle:
            self = .lifecycle(app: try arguments.string(at: 0), lifecycle: try arguments.string(at: 1))
        case .testHook:
            return nil
        }
    }

    /// The method whose call makes this request: whose row says who may make it.
    package var method: Permissions1Method {
        switch self {
        case .get: .get
        case .list: .list
        case .listApps: .listApps
        case .set: .set
        case .reset: .reset
        case .lastKill: .lastKill
        case .lifecycle: .lifecycle
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
