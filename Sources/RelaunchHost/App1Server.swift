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


    /// The method handler for a call as the bus delivered it: input and what the app shows are root's.
    func handle(_ call: BusMethodCall) throws(BusError) -> BusReply {
        try handle(call, authorized: false)
    }

    /// The method handler for a call polkit authorized: a non-root caller may drive the app.
    func handleAuthorized(_ call: BusMethodCall) throws(BusError) -> BusReply {
        try handle(call, authorized: true)
    }

    private func handle(_ call: BusMethodCall, authorized: Bool) throws(BusError) -> BusReply {
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
        case "Scenes", "OpenScene", "CloseScene", "SceneTap", "SceneType", "SceneScreen", "SceneElements":
            try requireDriver()
            return try sceneCall(call)
        case "TestHook":
            try call.requireRoot()
            try testHook(try call.arguments.string(at: 0))
        default:
            throw .failed(name: BusError.unknownMethodName, "org.relaunch.App1 has no method \(Echo.quoted(call.member))")
        }
        return .empty
    }

    /// The scene methods: the windows of a scene-based app, and input aimed at one (an unknown
    /// session or refused input is InvalidArgs; an app that is not scene-based answers NotSupported).
    private func sceneCall(_ call: BusMethodCall) throws(BusError) -> BusReply {
        let arguments = call.arguments
        func session() throws(BusError) -> String { try arguments.string(at: 0) }
        let reply: BusReply?
        do {
            switch call.member {
            case "Scenes":
                reply = try host.withScenes { app in
                    let rows = app.sceneSummaries().map(\.busValue)
                    return (BusReply(.array(elementSignature: "(sss)", rows)), [])
                }
            case "OpenScene":
                reply = try host.withScenes { (app) throws(SceneInputError) in
                    let (session, effects) = try app.openScene()
                    logger.notice("opened a window (scene session \(session))", metadata: ["SCENE_SESSION": "\(session)"])
                    return (BusReply.string(session), effects)
                }
            case "CloseScene":
                let id = try session()
                reply = try host.withScenes { (app) throws(SceneInputError) in
                    let effects = try app.closeScene(id)
                    logger.notice("closed a window (scene session \(id)); its saved state goes", metadata: ["SCENE_SESSION": "\(id)"])
                    return (BusReply.empty, effects)
                }
            case "SceneTap":
                let (id, element) = (try session(), try arguments.string(at: 1))
                reply = try host.withScenes { (app) throws(SceneInputError) in (BusReply.empty, try app.tap(element, inScene: id)) }
            case "SceneType":
                let (id, field, text) = (try session(), try arguments.string(at: 1), try arguments.string(at: 2))
                reply = try host.withScenes { (app) throws(SceneInputError) in (BusReply.empty, try app.type(field, text, inScene: id)) }
            case "SceneScreen":
                let id = try session()
                reply = try host.withScenes { (app) throws(SceneInputError) in (BusReply.string(try app.screen(ofScene: id)), []) }
            default:  // SceneElements
                let id = try session()
                reply = try host.withScenes { (app) throws(SceneInputError) in
                    let rows = try app.elements(ofScene: id).map {
                        AppElement(name: $0.name, kind: $0.isField ? .type : .tap, description: $0.description).busValue
                    }
                    return (BusReply(.array(elementSignature: "(sss)", rows)), [])
                }
            }
        } catch let error as SceneInputError {
            throw .invalidArgs(error.description)
        } catch let error as BusError {
            throw error
        } catch {
            throw .failed("\(error)")
        }
        guard let reply else {
            throw BusError(name: Self.notSupportedName,
                           message: "\(host.configuration.appID) is not scene-based: it has one window and no scenes; drop --scene")
        }
        return reply
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
        case "linger-on-quit":
            host.lingerOnNextQuit()
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
    static let testHooks = ["hang", "crash-next-restore", "stall-next-restore", "linger-on-quit"]
}
