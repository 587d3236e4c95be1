internal import RelaunchApp
internal import Logging
internal import RestorationKit
internal import Systemd
internal import RelaunchBus
internal import RelaunchContract

/// `org.relaunch.App1` for a hosted app: turns method calls into app input and answers (docs/DESIGN.md).
///
/// Who may call each method is its row's ``App1Method/access``, checked once here
/// (``refusal(of:_:authorized:)``): input and what the app shows are for root, or for callers polkit
/// authorizes for `org.relaunch.app.drive` (asked off the bus thread, see ``BusService``); Ready is
/// open; TestHook is root's alone. Bad input is InvalidArgs saying what is accepted, never echoing more than 64
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

    /// Why `call` of `method` is refused, or nil if it may go on: the one access check, reading
    /// the table's ``App1Method/access``; `authorized` says polkit allowed the caller to drive the app.
    static func refusal(of method: App1Method, _ call: BusMethodCall, authorized: Bool) -> BusError? {
        guard !method.access.admits(fromRoot: call.isFromRoot, driveAuthorized: authorized) else { return nil }
        switch method.access {
        case .anyone:
            return nil
        case .driver:
            return .accessDenied(
                "driving the app or reading its screen and state needs root or polkit's \(AppDriveAuthorizer.action) (members of the group 'relaunch' have it)")
        case .root:
            do throws(BusError) { try call.requireRoot() } catch { return error }
            return nil
        }
    }

    private func handle(_ call: BusMethodCall, authorized: Bool) throws(BusError) -> BusReply {
        guard let method = App1Method(member: call.member) else {
            throw .failed(name: BusError.unknownMethodName, "org.relaunch.App1 has no method \(Echo.quoted(call.member))")
        }
        if let refusal = Self.refusal(of: method, call, authorized: authorized) { throw refusal }
        switch method {
        case .screen:
            return .string(host.screen())
        case .state:
            return .string(host.stateJSON())
        case .elements:
            return BusReply(.array(elementSignature: "(sss)", host.elements().map(\.busValue)))
        case .ready:
            // The name is requested only once launching finished, so whoever reaches us sees a launched app.
            return BusReply(.structure([.bool(true), .string(host.configuration.invocationID ?? "")]))
        case .tap:
            let element = try call.arguments.string(at: 0)
            try input { app throws(App.InputError) in try app.tap(element) }
        case .type:
            let field = try call.arguments.string(at: 0)
            let text = try call.arguments.string(at: 1)
            try input { app throws(App.InputError) in try app.type(field, text) }
        case .background:
            try input { $0.background() }
        case .foreground:
            try input { $0.foreground() }
        case .quit:
            let force = try call.arguments.bool(at: 0)
            logger.notice(force ? "force quit: discarding saved state and exiting" : "quit: preserving state and exiting")
            try input { force ? $0.forceQuit() : $0.quit() }
        case .scenes, .openScene, .closeScene, .sceneTap, .sceneType, .sceneScreen, .sceneElements:
            return try sceneCall(method, call.arguments)
        case .testHook:
            try testHook(try call.arguments.string(at: 0))
        }
        return .empty
    }

    /// The scene methods: the windows of a scene-based app, and input aimed at one (an unknown
    /// session or refused input is InvalidArgs; an app that is not scene-based answers NotSupported).
    private func sceneCall(_ method: App1Method, _ arguments: BusValues) throws(BusError) -> BusReply {
        func session() throws(BusError) -> String { try arguments.string(at: 0) }
        let reply: BusReply?
        do {
            switch method {
            case .scenes:
                reply = try host.withScenes { app in
                    let rows = app.sceneSummaries().map(\.busValue)
                    return (BusReply(.array(elementSignature: "(sss)", rows)), [])
                }
            case .openScene:
                reply = try host.withScenes { (app) throws(SceneInputError) in
                    let (session, effects) = try app.openScene()
                    logger.notice("opened a window (scene session \(session))", metadata: ["SCENE_SESSION": "\(session)"])
                    return (BusReply.string(session), effects)
                }
            case .closeScene:
                let id = try session()
                reply = try host.withScenes { (app) throws(SceneInputError) in
                    let effects = try app.closeScene(id)
                    logger.notice("closed a window (scene session \(id)); its saved state goes", metadata: ["SCENE_SESSION": "\(id)"])
                    return (BusReply.empty, effects)
                }
            case .sceneTap:
                let (id, element) = (try session(), try arguments.string(at: 1))
                reply = try host.withScenes { (app) throws(SceneInputError) in (BusReply.empty, try app.tap(element, inScene: id)) }
            case .sceneType:
                let (id, field, text) = (try session(), try arguments.string(at: 1), try arguments.string(at: 2))
                reply = try host.withScenes { (app) throws(SceneInputError) in (BusReply.empty, try app.type(field, text, inScene: id)) }
            case .sceneScreen:
                let id = try session()
                reply = try host.withScenes { (app) throws(SceneInputError) in (BusReply.string(try app.screen(ofScene: id)), []) }
            case .sceneElements:
                let id = try session()
                reply = try host.withScenes { (app) throws(SceneInputError) in
                    let rows = try app.elements(ofScene: id).map {
                        AppElement(name: $0.name, kind: $0.isField ? .type : .tap, description: $0.description).busValue
                    }
                    return (BusReply(.array(elementSignature: "(sss)", rows)), [])
                }
            default:
                throw BusError.failed("\(method.member) is not a scene method")
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
