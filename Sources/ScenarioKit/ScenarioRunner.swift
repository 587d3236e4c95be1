import RelaunchBus
import RelaunchContract
package import RelaunchctlCore
import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// A failed scenario step: where, and what was expected against what was seen.
package struct ScenarioFailure: Error, CustomStringConvertible {
    package var scenario: String
    package var line: Int
    package var message: String
    package var description: String { "\(scenario):\(line): \(message)" }
}

/// Plays one scenario's steps against permissiond, the app's unit and the journal.
package struct ScenarioRunner {
    package static let policyDropIn = "/run/systemd/system/permissiond.service.d/50-relaunch-scenario-policy.conf"
    /// Where the `build` step's runtime drop-in for the app's unit goes.
    var buildDropIn: String { "/run/systemd/system/\(target.unit).d/50-relaunch-scenario-build.conf" }
    /// Where the `env` step's runtime drop-in for the app's unit goes.
    var environmentDropIn: String { "/run/systemd/system/\(target.unit).d/50-relaunch-scenario-env.conf" }

    package let timeout: Duration
    package let verbose: Bool
    /// The app the steps drive (`app APP` switches it).
    package var target: AppTarget
    /// The journal's last entry before the steps the next expectations follow: `expect journal` and
    /// `no-journal` look only after it (see ``Step/expectJournal(_:fields:present:)``).
    var journalCursor: String?
    /// What a permission step saw before it changed anything, for `expect kill` / `no-kill`.
    var beforeChange: BeforeChange?
    /// What `env` steps set, by app unit: the drop-in holds them all.
    private var environment: [String: [String: String]] = [:]
    /// The profile permissiond runs with, and the one-time delay a `one-time-delay` step set (seconds):
    /// the policy drop-in holds both.
    private var policy: KillPolicy = .ios
    private var oneTimeDelay: String?

    package init(timeout: Duration, verbose: Bool, target: AppTarget) {
        self.timeout = timeout
        self.verbose = verbose
        self.target = target
    }

    /// Resets the world (the app a first `app APP` step names, else the default one), then plays
    /// every step; throws the first failure.
    package mutating func play(_ scenario: Scenario) throws(ScenarioFailure) {
        do {
            if case .app(let app)? = scenario.steps.first?.1 { target = try AppTarget.resolve(app) }
            try prepare()
        } catch {
            throw ScenarioFailure(scenario: scenario.name, line: 0, message: "preparing: \(error.message)")
        }
        var span = ExpectationSpan()
        for (line, step) in scenario.steps {
            if verbose { print("  \(scenario.name):\(line) \(scenario.texts[line] ?? "\(step)")") }
            do {
                if span.takesCursor(before: step) { journalCursor = try JournalQuery.tailCursor() }
                try perform(step)
            } catch {
                throw ScenarioFailure(scenario: scenario.name, line: line, message: error.message)
            }
        }
    }

    /// Stops the app, drops its saved state, its data model (`app.data`, beside the archive) and
    /// drop-ins, resets permissions, restarts it fresh: what one scenario made never reaches the next.
    private mutating func prepare() throws(CLIError) {
        try systemd { manager throws(BusError) in try manager.run(.stop, target.unit, timeout: timeout) }
        unlink(buildDropIn)
        unlink(environmentDropIn)
        oneTimeDelay = nil
        try setPolicy(.ios)
        try PermissionsCLIClient().reset(app: target.app, permission: "")
        // Root in the app's folder: links are deleted, never followed (AppStateFolder).
        try Self.removeSavedState(inFolder: try stateDirectory())
        try systemd { manager throws(BusError) in
            try manager.resetFailed(target.unit)
            try manager.run(.start, target.unit, timeout: timeout)
        }
        _ = try AppCLIClient.waitReady(target, timeout: timeout)
    }

    /// Runs `body` with systemd's manager API on the system bus; its failures say what to do.
    func systemd<T>(_ body: (SystemdManager) throws(BusError) -> T) throws(CLIError) -> T {
        let manager = SystemdManager(connection: try systemBus())
        do {
            return try body(manager)
        } catch {
            throw cliError(error, talkingTo: "systemd", hint: "is systemd running here? In the sandbox: scripts/sandbox exec -- relaunchctl ...")
        }
    }

    private mutating func perform(_ step: Step) throws(CLIError) {
        switch step {
        case .app(let app):
            target = try AppTarget.resolve(app)
            _ = try AppCLIClient.waitReady(target, timeout: timeout)
        case .policy(let policy):
            try setPolicy(policy)
        case .oneTimeDelay(let seconds):
            oneTimeDelay = seconds
            try setPolicy(policy)
        case .setPermission(let permission, let state):
            try rememberBeforeChange()
            try PermissionsCLIClient().set(app: target.app, permission: permission.rawValue, state: state.rawValue)
        case .resetPermissions(let permission):
            try rememberBeforeChange()
            try PermissionsCLIClient().reset(app: target.app, permission: permission?.rawValue ?? "")
        case .tap(let element):
            try AppCLIClient(target).tap(element)
        case .type(let field, let text):
            try AppCLIClient(target).type(field: field, text: text)
        case .background:
            try AppCLIClient(target).background()
        case .foreground:
            try AppCLIClient(target).foreground()
        case .quit(let force):
            try AppCLIClient.quit(target, force: force, timeout: timeout)
        case .waitReady:
            _ = try AppCLIClient.waitReady(target, timeout: timeout)
        case .screen:
            // The app's screen: its lines kept, anything else it holds escaped, as `app screen` prints it.
            print(TerminalText.escapedLines(try AppCLIClient(target).screen()))
        case .restartApp:
            try systemd { manager throws(BusError) in try manager.run(.restart, target.unit, timeout: timeout) }
            _ = try AppCLIClient.waitReady(target, timeout: timeout)
        case .stopApp:
            try systemd { manager throws(BusError) in try manager.run(.stop, target.unit, timeout: timeout) }
        case .startApp:
            try systemd { manager throws(BusError) in try manager.run(.start, target.unit, timeout: timeout) }
            _ = try AppCLIClient.waitReady(target, timeout: timeout)
        case .killApp:
            let before = try UnitState.read(target.unit)
            try systemd { manager throws(BusError) in try manager.killUnit(target.unit, whom: "main", signal: SIGKILL) }
            try waitForNewInstance(after: before.invocationID)
        case .expectKill:
            try expectKill()
        case .expectNoKill:
            try expectNoKill()
        case .expectState(let path, let value):
            try expectState(path, value)
        case .expectJournal(let event, let fields, let present):
            if present { try expectJournalEntry(event, fields) } else { try expectNoJournalEntry(event, fields) }
        case .expectUnit(let property, let value):
            try Poll(timeout: timeout).expectUnit(property, value) { () throws(CLIError) in
                try systemd { manager throws(BusError) in try manager.propertyText(target.unit, property) }
            }
        case .setBuild(let build):
            if let build {
                try writeDropIn(buildDropIn, "[Service]\nEnvironment=RELAUNCH_BUILD=\(build)\n")
            } else {
                unlink(buildDropIn)
            }
            try systemd { manager throws(BusError) in try manager.reload() }
        case .setEnvironment(let name, let value):
            var variables = environment[target.unit] ?? [:]
            variables[name] = value.isEmpty ? nil : value
            environment[target.unit] = variables
            if variables.isEmpty {
                unlink(environmentDropIn)
            } else {
                try writeDropIn(environmentDropIn, Self.environmentDropInText(variables))
            }
            try systemd { manager throws(BusError) in try manager.reload() }
        case .corruptArchive:
            try corruptArchive()
        case .testHook(let name):
            try AppCLIClient(target).testHook(name)
        case .repeat(let count, let inner):
            for _ in 0..<count { try perform(inner) }
        case .openScene:
            _ = try AppCLIClient(target).openScene()
        case .closeScene(let number):
            let client = try AppCLIClient(target)
            try client.closeScene(try client.session(ofWindow: number))
        case .inScene(let number, let inner):
            let client = try AppCLIClient(target)
            let session = try client.session(ofWindow: number)
            switch inner {
            case .tap(let element): try client.tap(element, inScene: session)
            case .type(let field, let text): try client.type(field: field, text: text, inScene: session)
            default: print(TerminalText.escapedLines(try client.screen(ofScene: session)))
            }
        }
    }

    private mutating func setPolicy(_ policy: KillPolicy) throws(CLIError) {
        self.policy = policy
        let delay = oneTimeDelay.map { "Environment=RELAUNCH_ONE_TIME_DELAY=\($0)\n" } ?? ""
        try writeDropIn(Self.policyDropIn, "[Service]\nEnvironment=RELAUNCH_KILL_POLICY=\(policy.rawValue)\n\(delay)")
        try systemd { manager throws(BusError) in
            try manager.reload()
            try manager.run(.restart, "permissiond.service", timeout: timeout)
        }
    }
}
