internal import RelaunchApp
internal import Logging
internal import RestorationKit
internal import Systemd
internal import RelaunchBus
internal import RelaunchContract

/// `org.relaunch.App1` for a hosted app: turns method calls into app input and answers (docs/DESIGN.md).
///
/// Input methods (Tap, Type, Background, Foreground, Quit) and what the app shows (State, Screen,
/// Elements: they may hold what the user typed) are for root, or for callers polkit authorizes for
/// `org.relaunch.app.drive` (asked off the bus thread, see ``BusService``); Ready is open; TestHook
/// is root's alone. Bad input is InvalidArgs saying what is accepted, never echoing more than 64
/// characters of it.
struct App1Server<App: HostableApp>: Sendable {
    /// `org.freedesktop.DBus.Error.NotSupported`: TestHook without `RELAUNCH_TEST_HOOKS=1`.
    static var notSupportedName: String { App1Members.notSupportedName }
    /// The hooks `TestHook` takes.
    static var testHooks: [String] { App1Members.testHooks }

    let host: AppHost<App>
    let logger: Logger


    /// The method handler; `authorized`: polkit allowed a non-root caller to drive the app.
    func handle(_ call: BusMethodCall, authorized: Bool = false) throws(BusError) -> BusReply {
        func requireDriver() throws(BusError) {
            guard call.isFromRoot || authorized else {
                throw .accessDenied(
                    "driving the app or reading its screen and state needs root or polkit's \(AppDriveAuthorizer.action) (members of the group 'relaunch' have it)")
            }
        }
        switch call.member {
        case "Screen":
            try requireDriver()
            return .string(host.screen())
        case "State":
            try requireDriver()
            return .string(host.stateJSON())
        case "Elements":
            try requireDriver()
            return BusReply(.array(elementSignature: "(sss)", host.elements().map(\.busValue)))
        case "Ready":
            // The name is requested only once launching finished, so whoever reaches us sees a launched app.
            return BusReply(.structure([.bool(true), .string(host.configuration.invocationID ?? "")]))
        case "Tap":
            try requireDriver()
            let element = try call.arguments.string(at: 0)
            try input { app throws(App.InputError) in try app.tap(element) }
        case "Type":
            try requireDriver()
            let field = try call.arguments.string(at: 0)
            let text = try call.arguments.string(at: 1)
            try input { app throws(App.InputError) in try app.type(field, text) }
        case "Background":
            try requireDriver()
            try input { $0.background() }
        case "Foreground":
            try requireDriver()
            try input { $0.foreground() }
        case "Quit":
            try requireDriver()
            let force = try call.arguments.bool(at: 0)
            logger.notice(force ? "force quit: discarding saved state and exiting" : "quit: preserving state and exiting")
            try input { force ? $0.forceQuit() : $0.quit() }
        case "TestHook":
            try call.requireRoot()
            try testHook(try call.arguments.string(at: 0))
        default:
            throw .failed(name: BusError.unknownMethodName, "org.relaunch.App1 has no method \(Echo.quoted(call.member))")
        }
        return .empty
    }

    private func input(_ body: (App) throws(App.InputError) -> [AppEffect]) throws(BusError) {
        do {
            try host.input(body)
        } catch {
            throw .invalidArgs(error.description)
        }
    }

    private func testHook(_ name: String) throws(BusError) {
        guard host.configuration.testHooksEnabled else {
            throw BusError(name: Self.notSupportedName,
                           message: "test hooks are off; the unit must set RELAUNCH_TEST_HOOKS=1 (the sandbox's drop-in does)")
        }
        switch name {
        case "hang":
            host.hang()
        case "crash-next-restore", "stall-next-restore":
            let stall = name == "stall-next-restore"
            do {
                try CrashingRestoringMark.arm(directory: host.configuration.stateDirectory, stall: stall)
            } catch {
                throw .failed("could not arm \(name): \(error)")
            }
            logger.warning("test hook: the next launch that restores will \(stall ? "stall" : "abort") while restoring")
        default:
            throw .invalidArgs("unknown test hook '\(name)'; accepted: \(Self.testHooks.joined(separator: ", "))")
        }
    }
}

/// What every App1 server shares, whatever the app.
enum App1Members {
    static let notSupportedName = "org.freedesktop.DBus.Error.NotSupported"
    static let testHooks = ["hang", "crash-next-restore", "stall-next-restore"]
}
