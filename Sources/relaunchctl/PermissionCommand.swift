import ArgumentParser
import RelaunchctlCore
import RelaunchBus
import RelaunchContract
import RelaunchDriver

/// `relaunchctl permission …`: read and change app permissions in permissiond.
struct PermissionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "permission",
        abstract: "Read and change app permissions (Set and Reset need root).",
        discussion: """
        Permissions: \(Permission.acceptedNames).
        States: \(PermissionState.acceptedNames); also full (allowed), none and never (denied), \
        while-using (allowed, for location). Which states a permission takes, and which changes kill \
        the running app, is the app's profile's (ios or android; docs/PERMISSIONS.md): under ios a \
        change of camera, microphone, photos, contacts or calendars kills the app and systemd \
        relaunches it, location and notifications change in place; under android only a revoke kills.
        """,
        subcommands: [List.self, Get.self, Set.self, Reset.self]
    )
}

/// Parses a permission name, or says which names are accepted.
func parsePermission(_ name: String) throws -> Permission {
    guard let permission = Permission(rawValue: name) else {
        throw ValidationError("unknown permission \(Echo.quoted(name)); accepted: \(Permission.acceptedNames)")
    }
    return permission
}

/// The permission names, for shell completion.
let permissionWords = Permission.allCases.map(\.rawValue)

/// Every state word of some profile, for shell completion.
let stateWords = PermissionProfile.stateWords

/// Parses a state word (a state's name or another name of it, such as `full`), or says which are
/// accepted. Whether the app's profile accepts it for the permission is permissiond's to say.
func parseState(_ name: String) throws -> PermissionState {
    guard let state = PermissionProfile.state(named: name) else {
        throw ValidationError("unknown state \(Echo.quoted(name)); accepted: \(PermissionProfile.acceptedWords)")
    }
    return state
}

extension PermissionCommand {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List every permission of APP, or of every known app.")

        @Argument(help: "The app id (default: every app permissiond knows).")
        var app: String?

        @Flag(help: "Print JSON: {app: {permission: state}}.")
        var json = false

        func run() async throws {
            let client = try PermissionsCLIClient()
            let apps = try app.map { [$0] } ?? client.listApps()
            var table: [(String, [String: String])] = []
            for app in apps {
                table.append((app, try client.list(app: app)))
            }
            if json {
                let members = table.map { app, states in
                    "\(jsonString(app)): {" + Permission.allCases.filter { states[$0.rawValue] != nil }.map {
                        "\(jsonString($0.rawValue)): \(jsonString(states[$0.rawValue]!))"
                    }.joined(separator: ", ") + "}"
                }
                print("{" + members.joined(separator: ", ") + "}")
                return
            }
            for (app, states) in table {
                // The permissions the app uses (its registration's Permissions=), in the usual order.
                for permission in Permission.allCases {
                    guard let state = states[permission.rawValue] else { continue }
                    print(pad(inert(app), 16) + pad(permission.rawValue, 12) + inert(state))
                }
            }
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "get", abstract: "Print one permission's state.")

        @Argument(help: "The app id.") var app: String
        @Argument(help: "The permission.", transform: parsePermission) var permission: Permission

        func run() async throws {
            print(inert(try PermissionsCLIClient().get(app: app, permission: permission.rawValue)))
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change one permission (root only); may kill the running app, as iOS does.",
            discussion: """
            With --wait, when the change kills the app, waits until systemd has relaunched it and it \
            has finished launching, then prints how it came back:
              checkin-demo camera: denied → allowed (app killed; systemd relaunched it)
              relaunched: restored in 23.1 ms (exit → READY), instance 5f0c…
                TabViewController  existing
                TabViewController/CheckInModalNavigationController  appDelegate
            """)

        @Argument(help: "The app id.") var app: String
        @Argument(help: "The permission.", completion: .list(permissionWords), transform: parsePermission)
        var permission: Permission
        @Argument(
            help: "The new state: allowed, denied, not-determined, or one of the app's profile (limited, add-only, …).",
            completion: .list(stateWords), transform: parseState)
        var state: PermissionState
        @Flag(help: "Location: precise location off (while-using becomes while-using-approximate, always always-approximate).")
        var approximate = false
        @OptionGroup var waiting: RelaunchWaitOptions

        func validate() throws {
            if approximate && approximated == nil {
                throw ValidationError("--approximate goes with location while-using (allowed) or always, not \(permission) \(state)")
            }
        }

        /// The state with precise location off, when --approximate asks for it.
        private var approximated: PermissionState? {
            guard permission == .location else { return nil }
            switch state {
            case .allowed, .whileUsingApproximate: return .whileUsingApproximate
            case .always, .alwaysApproximate: return .alwaysApproximate
            default: return nil
            }
        }

        func run() async throws {
            let state = approximate ? approximated ?? self.state : self.state
            if waiting.wait {
                let change = try await waiting.run(app) { (app) async throws(RelaunchTestingError) in
                    try await app.setPermission(permission, to: state)
                }
                print(PermissionChangeText.text(change))
                return
            }
            let client = try PermissionsCLIClient()
            let old = try client.get(app: app, permission: permission.rawValue)
            let before = try client.lastKill(app: app)
            try client.set(app: app, permission: permission.rawValue, state: state.rawValue)
            let after = try client.lastKill(app: app)
            let killed = after != nil && after?.realtimeMicroseconds != before?.realtimeMicroseconds
            print(inert("\(app) \(permission): \(old) → \(state)") + (killed ? " (app killed; systemd relaunches it)" : ""))
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Reset one permission, or all of APP's, to not-determined (root only).",
            discussion: "`reset APP` and `reset APP all` reset every permission of APP; --wait as for set.")

        @Argument(help: "The app id.") var app: String
        @Argument(help: "The permission, or all (default: all).", transform: parsePermissionOrAll)
        var permission: PermissionOrAll = .all
        @OptionGroup var waiting: RelaunchWaitOptions

        func run() async throws {
            let one = permission.permission
            if waiting.wait {
                let change = try await waiting.run(app) { (app) async throws(RelaunchTestingError) in
                    try await app.resetPermission(one)
                }
                print(PermissionChangeText.text(change))
                return
            }
            try PermissionsCLIClient().reset(app: app, permission: one?.rawValue ?? "")
            print(inert("\(app) \(one?.rawValue ?? "every permission"): not-determined"))
        }
    }
}

/// A permission, or every permission of an app (`all`).
enum PermissionOrAll: Equatable {
    case one(Permission)
    case all

    var permission: Permission? { if case .one(let permission) = self { permission } else { nil } }
}

/// Parses a permission name or `all`.
func parsePermissionOrAll(_ name: String) throws -> PermissionOrAll {
    name == "all" ? .all : .one(try parsePermission(name))
}

/// `text` that an app, a host, a daemon or the journal supplied, on one line with its control
/// characters escaped (``TerminalText``): every text printer of relaunchctl prints such fields
/// through it; `--json` does not.
func inert(_ text: String) -> String { TerminalText.escaped(text) }

/// Pads `text` with spaces to `width` columns, always leaving one space after it.
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}
