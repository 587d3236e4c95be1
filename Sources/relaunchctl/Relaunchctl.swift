import ArgumentParser
import Dispatch
import RelaunchContract
import RelaunchctlJournal
import RelaunchctlCore

/// The command line for people and scripts: permissions, the demo app, the journal, archives.
struct Relaunchctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relaunchctl",
        abstract: "Toggle app permissions, drive registered apps and review relaunches.",
        discussion: """
        Talks to permissiond (org.relaunch.Permissions1) and the registered apps (org.relaunch.App1) \
        on the system bus, and reads the journal.

        A scripted permission toggle:
          relaunchctl app tap check-in && relaunchctl app type note "Window seat"
          relaunchctl app background
          relaunchctl permission set checkin-demo camera allowed   # kills the app, as iOS does
          relaunchctl app wait-ready && relaunchctl app state --json
          relaunchctl journal --since -5min

        Exit codes: 0 done, 1 failed, 2 usage, 69 app or daemon unreachable, 77 not authorized.
        """,
        subcommands: [PermissionCommand.self, AppCommand.self, JournalCommand.self, ArchiveCommand.self,
                      ScenarioCommand.self]
    )
}

@main
enum RelaunchctlMain {
    /// Plain `relaunchctl journal` arguments run at once, on this thread: a small journal reads in less
    /// time than the concurrency runtime and ArgumentParser take to start. Everything else, help and
    /// errors included, goes through ArgumentParser in a task on the main actor, as `async` main ran it.
    static func main() {
        let arguments = CommandLine.arguments
        if arguments.count >= 2, arguments[1] == JournalCommand.name,
           let options = JournalOptions(plainArguments: Array(arguments.dropFirst(2))) {
            do {
                try options.run()
            } catch {
                printError(error.message)
                exit(error.code.rawValue)
            }
            return
        }
        Task { @MainActor in
            await parseAndRun()
            exit(0)
        }
        dispatchMain()
    }

    /// Reads the arguments with ArgumentParser and runs the command; exits with the contract's codes.
    private static func parseAndRun() async {
        if CommandLine.arguments.count <= 1 {
            // No command at all is a usage error (exit 2), with the usage to learn from.
            printError(Relaunchctl.helpMessage())
            exit(CLIError.Code.usage.rawValue)
        }
        do {
            var command = try await Relaunchctl.asyncParseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as CLIError {
            printError(error.message)
            exit(error.code.rawValue)
        } catch {
            let code = Relaunchctl.exitCode(for: error)
            if code == .success {
                print(Relaunchctl.fullMessage(for: error))
                exit(0)
            }
            // ArgumentParser's own errors are usage errors: one line and exit 2, as the contract says.
            printError(quotingArguments(in: Relaunchctl.message(for: error)) + " (see --help)")
            exit(code == .failure ? CLIError.Code.failed.rawValue : CLIError.Code.usage.rawValue)
        }
    }
}

/// ArgumentParser's messages repeat a bad value verbatim ("The value '…' is invalid"): quote every
/// long or multi-line argument through ``Echo`` instead, so the error stays one short line.
func quotingArguments(in message: String) -> String {
    var message = message
    for argument in CommandLine.arguments.dropFirst()
    where argument.count > Echo.limit || argument.unicodeScalars.contains(where: { $0.value < 0x20 }) {
        message = message.replacing("'\(argument)'", with: Echo.quoted(argument))
        message = message.replacing(argument, with: Echo.quoted(argument))
    }
    return message
}
