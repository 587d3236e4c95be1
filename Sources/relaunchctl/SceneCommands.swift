import ArgumentParser
import FoundationEssentials
import RelaunchContract
import RelaunchctlCore

/// `relaunchctl app scenes` and `relaunchctl app scene open|close`: the windows of a scene-based app
/// (CONTRACT.md, Scenes). `--scene ID` on `tap`, `type`, `screen` and `elements` aims them at one.
extension AppCommand {
    struct Scenes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scenes",
            abstract: "The open windows of a scene-based app: session id, title, activity type.")
        @OptionGroup var option: AppOption
        @ParentCommand var parent: AppCommand
        var target: AppOption { AppOption(app: option.app ?? parent.app) }
        @Flag(help: "Print a JSON array of {session, title, activityType}.") var json = false
        func run() async throws {
            try parent.refuseScene(for: "scenes")
            let scenes = try target.client().scenes()
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(scenes), as: UTF8.self))
                return
            }
            print(pad("SESSION", 38) + pad("TITLE", 24) + "ACTIVITY TYPE")
            for scene in scenes {
                print(pad(inert(scene.session), 38) + pad(inert(scene.title.isEmpty ? "-" : scene.title), 24)
                    + inert(scene.activityType))
            }
        }
    }

    struct Scene: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scene",
            abstract: "Open or close a window of a scene-based app.",
            subcommands: [Open.self, Close.self])

        struct Open: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "open", abstract: "Open a new window; prints its session id.")
            @OptionGroup var option: AppOption
            @ParentCommand var parent: AppCommand
            var target: AppOption { AppOption(app: option.app ?? parent.app) }
            func run() async throws {
                try parent.refuseScene(for: "scene open")
                print(inert(try target.client().openScene()))
            }
        }

        struct Close: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "close", abstract: "Close the window of a session; its saved state goes.")
            @OptionGroup var option: AppOption
            @ParentCommand var parent: AppCommand
            var target: AppOption { AppOption(app: option.app ?? parent.app) }
            @Argument(help: "The window's session id (relaunchctl app scenes).") var session: String
            func run() async throws {
                try parent.refuseScene(for: "scene close")
                try target.client().closeScene(session)
            }
        }
    }
}

extension AppCommand {
    /// A usage error when `--scene` was given to a subcommand that acts on the whole app.
    func refuseScene(for subcommand: String) throws(CLIError) {
        guard scene != nil else { return }
        throw .usage("--scene aims tap, type, screen or elements at one window; '\(subcommand)' acts on the whole app")
    }
}
