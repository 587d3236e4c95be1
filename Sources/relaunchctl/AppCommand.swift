import ArgumentParser
import FoundationEssentials
import RelaunchBus
import RelaunchContract
import RelaunchDriver
import RelaunchctlCore
import ScenarioKit
import Systemd

/// `relaunchctl app …`: drive and inspect any registered app over org.relaunch.App1.
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Drive a registered app and look at it (org.relaunch.App1).",
        discussion: """
        Every subcommand takes --app APP (default: checkin-demo when it is registered, else the \
        only registered app). What the current screen accepts: relaunchctl app elements.
        Registrations are read from /etc/relaunch/apps.d, /run/relaunch/apps.d, \
        /usr/local/lib/relaunch/apps.d and /usr/lib/relaunch/apps.d, or from the folders in $RELAUNCH_APPS_D (colon-separated).
        checkin-demo's elements: tab:venues tab:check-in check-in scan open-settings done venue:ID;
        its fields: venue party-size note.
        A scene-based app (notes-demo) has several windows: relaunchctl app scenes lists them, \
        app scene open|close opens or closes one, and --scene ID aims tap, type, screen and \
        elements at one.
        """,
        subcommands: [List.self, Elements.self, Tap.self, TypeText.self, Background.self, Foreground.self,
                      Quit.self, Screen.self, State.self, WaitReady.self, Scenes.self, Scene.self]
    )

    /// `relaunchctl app --app APP SUBCOMMAND` (the contract's form); `--app` after the subcommand works too.
    @Option(name: .customLong("app"), help: ArgumentHelp(
        "The registered app to drive (relaunchctl app list).", valueName: "app"))
    var app: String?

    /// `relaunchctl app --scene ID tap|type|screen|elements …` (the contract's form).
    @Option(name: .customLong("scene"), help: ArgumentHelp(
        "Aim tap, type, screen or elements at the window of this session (relaunchctl app scenes).", valueName: "id"))
    var scene: String?
}

/// `--scene ID` after the subcommand, for those that can aim at one window.
struct SceneOption: ParsableArguments {
    @Option(name: .customLong("scene"), help: ArgumentHelp(
        "Aim at the window of this session of a scene-based app (relaunchctl app scenes).", valueName: "id"))
    var scene: String?

    init() {}
}

/// `--app APP`, which every `app` subcommand takes.
struct AppOption: ParsableArguments {
    @Option(name: .customLong("app"), help: ArgumentHelp(
        "The registered app to drive (relaunchctl app list).", valueName: "app"))
    var app: String?

    init() {}

    /// The option as given (after the subcommand, or before it).
    init(app: String?) { self.app = app }

    /// The app to drive, resolved against the registrations.
    func target() throws(CLIError) -> AppTarget { try AppTarget.resolve(app) }

    /// Its App1 client.
    func client() throws(CLIError) -> AppCLIClient { try AppCLIClient(try target()) }
}

extension AppCommand {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "The registered apps (apps.d): app id, unit, bus name, unit state.")
        @Flag(help: "Print a JSON array of {app, unit, busName, activeState}.") var json = false
        func run() async throws {
            let registry = AppTarget.registry()
            let bus = try? systemBus()
            let rows = registry.ids.map { app -> AppRow in
                let registration = registry[app]!
                let state = bus.flatMap { try? SystemdManager(connection: $0).activeState(registration.unit) } ?? "unknown"
                return AppRow(app: app, unit: registration.unit, busName: registration.busName, activeState: state)
            }
            for problem in registry.problems { printError("skipped \(problem)") }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(rows), as: UTF8.self))
                return
            }
            guard !rows.isEmpty else {
                print("no app is registered (files APP.conf in \(AppRegistry.defaultFolders.joined(separator: ", ")))")
                return
            }
            print(pad("APP", 20) + pad("UNIT", 28) + pad("BUS NAME", 32) + "STATE")
            for row in rows {
                print(pad(inert(row.app), 20) + pad(inert(row.unit), 28) + pad(inert(row.busName ?? "-"), 32)
                    + inert(row.activeState))
            }
        }

        struct AppRow: Encodable {
            var app: String
            var unit: String
            var busName: String?
            var activeState: String

            enum CodingKeys: String, CodingKey { case app, unit, busName, activeState }

            /// Every key, `busName` as null when the app serves no App1.
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(app, forKey: .app)
                try container.encode(unit, forKey: .unit)
                try container.encode(busName, forKey: .busName)
                try container.encode(activeState, forKey: .activeState)
            }
        }
    }

    struct Elements: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "elements",
            abstract: "What the app's current screen accepts: name, kind (tap or type), description.")
        @OptionGroup var option: AppOption
        @ParentCommand var parent: AppCommand
        var target: AppOption { AppOption(app: option.app ?? parent.app) }
        @OptionGroup var sceneOption: SceneOption
        @Flag(help: "Print a JSON array of {name, kind, description}.") var json = false
        func run() async throws {
            let client = try target.client()
            let elements = try (sceneOption.scene ?? parent.scene).map { (id) throws(CLIError) in
                try client.elements(ofScene: id)
            } ?? client.elements()
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(elements), as: UTF8.self))
                return
            }
            for element in elements {
                print(pad(inert(element.name), 24) + pad(element.kind.rawValue, 6) + inert(element.description))
            }
        }
    }

    struct Tap: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "tap", abstract: "Tap an element on the screen (see: app elements).")
        @OptionGroup var option: AppOption
        @ParentCommand var parent: AppCommand
        var target: AppOption { AppOption(app: option.app ?? parent.app) }
        @Argument(help: "An element of the current screen, e.g. check-in (relaunchctl app elements).")
        var element: String
        @OptionGroup var sceneOption: SceneOption
        func run() async throws {
            if let id = sceneOption.scene ?? parent.scene {
                try target.client().tap(element, inScene: id)
            } else {
                try target.client().tap(element)
            }
        }
    }

    struct TypeText: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "type", abstract: "Type text into a field.")
        @OptionGroup var option: AppOption
        @ParentCommand var parent: AppCommand
        var target: AppOption { AppOption(app: option.app ?? parent.app) }
        @Argument(help: "A field of the current screen, e.g. note (relaunchctl app elements).") var field: String
        @Argument(help: "The text.") var text: String
        @OptionGroup var sceneOption: SceneOption
        func run() async throws {
            if let id = sceneOption.scene ?? parent.scene {
                try target.client().type(field: field, text: text, inScene: id)
            } else {
                try target.client().type(field: field, text: text)
            }
        }
    }

    struct Background: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "background",
            abstract: "Send the app to the background; it preserves its state.")
        @OptionGroup var option: AppOption
        @ParentCommand var parent: AppCommand
        var target: AppOption { AppOption(app: option.app ?? parent.app) }
        func run() async throws {
            try parent.refuseScene(for: "background")
            try target.client().background()
        }
    }

    struct Foreground: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "foreground", abstract: "Bring the app to the foreground.")
        @OptionGroup var option: AppOption
        @ParentCommand var parent: AppCommand
        var target: AppOption { AppOption(app: option.app ?? parent.app) }
        func run() async throws {
            try parent.refuseScene(for: "foreground")
            try target.client().foreground()
        }
    }

    struct Quit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "quit",
            abstract: "Quit the app; --force is the user's force quit, which discards saved state.")
        @OptionGroup var option: AppOption
        @ParentCommand var parent: AppCommand
        var target: AppOption { AppOption(app: option.app ?? parent.app) }
        @Flag(help: "Force quit: discard the saved state, as iOS does.") var force = false
        @Option(parsing: .unconditional, help: "Give up waiting for the app to exit after this many seconds.")
        var timeout: Double = 30
        func validate() throws {
            try validateTimeout(timeout)
        }
        func run() async throws {
            try parent.refuseScene(for: "quit")
            // Returns once the unit has seen the app exit, so a start that follows is not ignored.
            try AppCLIClient.quit(try target.target(), force: force, timeout: .milliseconds(Int64(timeout * 1000)))
        }
    }

    struct Screen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "screen", abstract: "Draw the current screen as text.")
        @OptionGroup var option: AppOption
        @ParentCommand var parent: AppCommand
        var target: AppOption { AppOption(app: option.app ?? parent.app) }
        @OptionGroup var sceneOption: SceneOption
        func run() async throws {
            let client = try target.client()
            let id = sceneOption.scene ?? parent.scene
            let screen = try id.map { (id) throws(CLIError) in try client.screen(ofScene: id) } ?? client.screen()
            // The app draws its screen line by line: its lines stay, anything else it holds is escaped.
            print(TerminalText.escapedLines(screen), terminator: "")
        }
    }

    struct State: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "state", abstract: "Print the app's restoration state.")
        @OptionGroup var option: AppOption
        @ParentCommand var parent: AppCommand
        var target: AppOption { AppOption(app: option.app ?? parent.app) }
        @Flag(help: "Print the state as JSON (the contract's keys).") var json = false
        func run() async throws {
            try parent.refuseScene(for: "state")
            let text = try target.client().state()
            let state = JSONValue(jsonText: text)
            if json {
                // The app's JSON as it sent it: JSON holds no raw control character but whitespace.
                // Text that is not JSON is the app's to fill, so it is refused rather than printed raw.
                guard state != nil else {
                    throw CLIError.failed("the app's state is not JSON: \(Echo.quoted(text)); "
                        + "relaunchctl app state (without --json) prints it as text")
                }
                print(text)
                return
            }
            guard let state else {
                print(TerminalText.escapedLines(text))
                return
            }
            for (label, path) in [("launch", "launch.outcome"), ("reason", "launch.reason"),
                                  ("lifecycle", "lifecycle"), ("tab", "selectedTab"), ("presented", "presented"),
                                  ("venue", "modal.venue"), ("party size", "modal.partySize"),
                                  ("note", "modal.note"), ("step", "modal.step")] {
                if let value = state.value(at: path) { print(pad(label + ":", 12) + inert(value.scalarText)) }
            }
            if case .object(let via)? = state.value(at: "restoredVia") {
                for (path, how) in via.sorted(by: { $0.key < $1.key }) {
                    print(pad("restored:", 12) + inert("\(path) via \(how.scalarText)"))
                }
            }
        }
    }

    struct WaitReady: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "wait-ready",
            abstract: "Wait until the running instance has finished launching (and restoring).")
        @OptionGroup var option: AppOption
        @ParentCommand var parent: AppCommand
        var target: AppOption { AppOption(app: option.app ?? parent.app) }
        @Option(parsing: .unconditional, help: "Give up after this many seconds.") var timeout: Double = 30
        func validate() throws {
            try validateTimeout(timeout)
        }
        func run() async throws {
            try parent.refuseScene(for: "wait-ready")
            let invocation = try AppCLIClient.waitReady(try target.target(), timeout: .milliseconds(Int64(timeout * 1000)))
            print("ready (invocation \(invocation))")
        }
    }
}
