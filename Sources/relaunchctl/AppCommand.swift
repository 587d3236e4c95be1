import ArgumentParser
import FoundationEssentials
import RelaunchContract
import ScenarioKit

/// `relaunchctl app …`: drive and inspect the check-in demo.
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Drive the check-in demo and look at it.",
        discussion: """
        Elements: tab:venues tab:check-in check-in scan open-settings done venue:ID
        Fields:   venue party-size note
        """,
        subcommands: [Tap.self, TypeText.self, Background.self, Foreground.self, Quit.self,
                      Screen.self, State.self, WaitReady.self]
    )
}

extension AppCommand {
    struct Tap: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Tap an element on the screen.")
        @Argument(help: "tab:venues, tab:check-in, check-in, scan, open-settings, done or venue:ID.")
        var element: String
        func run() async throws { try DemoClient().tap(element) }
    }

    struct TypeText: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "type", abstract: "Type text into a field.")
        @Argument(help: "venue, party-size or note.") var field: String
        @Argument(help: "The text.") var text: String
        func run() async throws { try DemoClient().type(field: field, text: text) }
    }

    struct Background: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send the app to the background; it preserves its state.")
        func run() async throws { try DemoClient().call("Background") }
    }

    struct Foreground: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bring the app to the foreground.")
        func run() async throws { try DemoClient().call("Foreground") }
    }

    struct Quit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Quit the app; --force is the user's force quit, which discards saved state.")
        @Flag(help: "Force quit: discard the saved state, as iOS does.") var force = false
        func run() async throws { try DemoClient().quit(force: force) }
    }

    struct Screen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Draw the current screen as text.")
        func run() async throws { print(try DemoClient().screen(), terminator: "") }
    }

    struct State: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the app's restoration state.")
        @Flag(help: "Print the state as JSON (the contract's keys).") var json = false
        func run() async throws {
            let text = try DemoClient().state()
            if json {
                print(text)
                return
            }
            guard let state = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
                print(text)
                return
            }
            for (label, path) in [("launch", "launch.outcome"), ("reason", "launch.reason"),
                                  ("lifecycle", "lifecycle"), ("tab", "selectedTab"), ("presented", "presented"),
                                  ("venue", "modal.venue"), ("party size", "modal.partySize"),
                                  ("note", "modal.note"), ("step", "modal.step")] {
                if let value = state.value(at: path) { print(pad(label + ":", 12) + value.scalarText) }
            }
            if case .object(let via)? = state.value(at: "restoredVia") {
                for (path, how) in via.sorted(by: { $0.key < $1.key }) {
                    print(pad("restored:", 12) + "\(path) via \(how.scalarText)")
                }
            }
        }
    }

    struct WaitReady: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "wait-ready",
            abstract: "Wait until the running instance has finished launching (and restoring).")
        @Option(parsing: .unconditional, help: "Give up after this many seconds.") var timeout: Double = 30
        func validate() throws {
            try validateTimeout(timeout)
        }
        func run() async throws {
            let invocation = try DemoClient.waitReady(timeout: .milliseconds(Int64(timeout * 1000)))
            print("ready (invocation \(invocation))")
        }
    }
}
