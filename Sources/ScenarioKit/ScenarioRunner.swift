import FoundationEssentials
import RelaunchBus
import RelaunchContract
package import RelaunchctlCore
import RelaunchTesting
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

    /// The unit's (first) StateDirectory=, where the host library keeps the archive and `app.data`.
    ///
    /// With DynamicUser=, /var/lib/APP is systemd's link to /var/lib/private/APP: the real folder is
    /// named, since the runner follows no link into an app's folder (`AppStateFolder`).
    func stateDirectory() throws(CLIError) -> String {
        let (directories, dynamicUser) = try systemd { manager throws(BusError) in
            (try manager.propertyText(target.unit, "StateDirectory"), try manager.propertyText(target.unit, "DynamicUser"))
        }
        guard let first = directories.split(separator: " ").first else {
            throw .failed("\(target.unit) has no StateDirectory=, so it keeps no archive the runner can find")
        }
        return dynamicUser == "yes" ? "/var/lib/private/\(first)" : "/var/lib/\(first)"
    }

    package let timeout: Duration
    package let verbose: Bool
    /// The app the steps drive (`app APP` switches it).
    package var target: AppTarget
    /// The journal's last entry before the steps the next expectations follow: `expect journal` and
    /// `no-journal` look only after it (see ``Step/expectJournal(_:fields:present:)``).
    private var journalCursor: String?
    /// Whether the step before was an expectation (the next other step starts a new span).
    private var afterExpectation = true
    /// What a permission step saw before it changed anything, for `expect kill` / `no-kill`.
    private var beforeChange: (invocation: String, mainPID: String, lastKillUSec: UInt64)?
    /// What `env` steps set, by app unit: the drop-in holds them all.
    private var environment: [String: [String: String]] = [:]

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
        afterExpectation = true
        for (line, step) in scenario.steps {
            if verbose { print("  \(scenario.name):\(line) \(scenario.texts[line] ?? "\(step)")") }
            do {
                // The first step that acts after expectations (or at the start) takes the cursor.
                if step.acts && afterExpectation { journalCursor = try JournalQuery.tailCursor() }
                if step.acts || step.isExpectation { afterExpectation = step.isExpectation }
                try perform(step)
            } catch {
                throw ScenarioFailure(scenario: scenario.name, line: line, message: error.message)
            }
        }
    }

    /// Stops the app, drops its saved state, its data model (`app.data`, beside the archive) and
    /// drop-ins, resets permissions, restarts it fresh: what one scenario made never reaches the next.
    private func prepare() throws(CLIError) {
        try systemd { manager throws(BusError) in try manager.run(.stop, target.unit, timeout: timeout) }
        unlink(buildDropIn)
        unlink(environmentDropIn)
        try setPolicy(.ios)
        try PermissionsCLIClient().reset(app: target.app, permission: "")
        // Root in the app's folder: links are deleted, never followed (AppStateFolder).
        let directory = try stateDirectory()
        var info = stat()
        if lstat(directory, &info) == 0 || errno != ENOENT {
            let folder = try AppStateFolder(directory)
            for name in ["restoration.archive", "app.data", "app.data.unreadable"] { try folder.remove(name) }
        }
        try systemd { manager throws(BusError) in
            try manager.resetFailed(target.unit)
            try manager.run(.start, target.unit, timeout: timeout)
        }
        _ = try AppCLIClient.waitReady(target, timeout: timeout)
    }

    /// Runs `body` with systemd's manager API on the system bus; its failures say what to do.
    private func systemd<T>(_ body: (SystemdManager) throws(BusError) -> T) throws(CLIError) -> T {
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
            try AppCLIClient(target).quit(force: force)
        case .waitReady:
            _ = try AppCLIClient.waitReady(target, timeout: timeout)
        case .screen:
            print(try AppCLIClient(target).screen())
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
            try expectJournal(event, fields, present: present)
        case .expectUnit(let property, let value):
            // systemd gets there on its own time (a quitting app is `deactivating` for a moment):
            // wait up to the timeout for the value.
            let deadline = ContinuousClock.now + timeout
            while true {
                let seen = try systemd { manager throws(BusError) in try manager.propertyText(target.unit, property) }
                if seen == value { break }
                guard ContinuousClock.now < deadline else {
                    throw .failed("unit \(property): expected '\(value)', got '\(seen)' after \(timeout)")
                }
                pause(milliseconds: 20)
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
            default: print(try client.screen(ofScene: session))
            }
        }
    }

    /// A `[Service]` section with one quoted `Environment=` line a variable, sorted by name.
    package static func environmentDropInText(_ variables: [String: String]) -> String {
        let lines = variables.sorted { $0.key < $1.key }.map { name, value in
            let quoted = value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("%", with: "%%")
            return "Environment=\"\(name)=\(quoted)\"\n"
        }
        return "[Service]\n" + lines.joined()
    }

    private mutating func rememberBeforeChange() throws(CLIError) {
        let unit = try UnitState.read(target.unit)
        let lastKill = try PermissionsCLIClient().lastKill(app: target.app)
        beforeChange = (unit.invocationID, unit.mainPID, lastKill?.realtimeMicroseconds ?? 0)
    }

    private func expectKill() throws(CLIError) {
        guard let before = beforeChange else { throw .usage("expect kill must follow a set or reset step") }
        guard let lastKill = try PermissionsCLIClient().lastKill(app: target.app),
            lastKill.realtimeMicroseconds != before.lastKillUSec
        else {
            throw .failed("expected a kill, but permissiond recorded none for this change")
        }
        guard lastKill.invocationID == before.invocation else {
            throw .failed("permissiond killed invocation \(lastKill.invocationID), the app ran \(before.invocation)")
        }
        try waitForNewInstance(after: before.invocation)
        try expectJournal(.appKilled, ["UNIT": target.unit, "SIGNAL": "KILL"], present: true)
        try expectJournal(.unitExited, ["UNIT": target.unit, "EXIT_STATUS": "9", "INVOCATION_ID": before.invocation],
                          present: true)
    }

    private func expectNoKill() throws(CLIError) {
        guard let before = beforeChange else { throw .usage("expect no-kill must follow a set or reset step") }
        if let lastKill = try PermissionsCLIClient().lastKill(app: target.app),
            lastKill.realtimeMicroseconds != before.lastKillUSec
        {
            throw .failed("expected no kill, but permissiond killed the app for \(lastKill.permission)")
        }
        let now = try UnitState.read(target.unit)
        guard now.invocationID == before.invocation, now.mainPID == before.mainPID,
              UnitState.isAlive(pid: now.mainPID)
        else {
            throw .failed("expected the same instance to run, but it changed (pid \(before.mainPID) → \(now.mainPID))")
        }
    }

    private func waitForNewInstance(after invocation: String) throws(CLIError) {
        let deadline = ContinuousClock.now + timeout
        while try UnitState.read(target.unit).invocationID == invocation {
            guard ContinuousClock.now < deadline else { throw .failed("systemd did not relaunch \(target.unit)") }
            pause(milliseconds: 20)
        }
        _ = try AppCLIClient.waitReady(target, timeout: timeout)
    }

    /// Waits up to the timeout for the value: an app learns of a change that did not kill it from
    /// permissiond's Changed signal, a moment after the change's call returned.
    private func expectState(_ path: String, _ expected: String) throws(CLIError) {
        let deadline = ContinuousClock.now + timeout
        while true {
            let text = try AppCLIClient(target).state()
            guard let state = try? JSONDecoder().decode(StateValue.self, from: Data(text.utf8)) else {
                throw .failed("the app's state is not JSON: \(text.prefix(80))")
            }
            guard let value = state.value(at: path) else { throw .failed("state has no \(path)") }
            if value.scalarText == expected { return }
            guard ContinuousClock.now < deadline else {
                throw .failed("state \(path): expected '\(expected)', got '\(value.scalarText)' after \(timeout)")
            }
            pause(milliseconds: 20)
        }
    }

    /// Presence: waits up to the timeout for a matching entry after the cursor. Absence: writes a marker
    /// entry, waits up to the timeout for it to be readable, and fails if a matching entry lies between
    /// the cursor and the marker: absence is proven up to a known point (everything logged before the
    /// marker was sent), not over a window of time.
    private func expectJournal(_ event: JournalEvent, _ fields: [String: String], present: Bool) throws(CLIError) {
        var matches = ["MESSAGE_ID=\(event.messageID)"]
        if event.isManagerEvent && fields["UNIT"] == nil { matches.append("UNIT=\(target.unit)") }
        matches += fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let what = matches.joined(separator: " ")
        let deadline = ContinuousClock.now + timeout
        if present {
            while true {
                let seen = try JournalQuery.count(matches: matches, afterCursor: journalCursor)
                if seen.count > 0 { return }
                guard ContinuousClock.now < deadline else {
                    throw .failed("no journal entry with \(what) after the steps this expectation follows (waited \(timeout))")
                }
                pause(milliseconds: 50)
            }
        }
        let marker = JournalQuery.writeMarker("expect no-journal \(event.rawValue)")
        while true {
            let seen = try JournalQuery.count(matches: matches, afterCursor: journalCursor, stopAt: marker)
            if seen.count > 0 { throw .failed("unexpected journal entry with \(what)") }
            if seen.stopSeen { return }
            guard ContinuousClock.now < deadline else {
                throw .failed("the runner's journal marker \(marker.field)=\(marker.value) did not show up within \(timeout), so the absence of \(what) is not proven")
            }
            pause(milliseconds: 50)
        }
    }

    private func setPolicy(_ policy: KillPolicy) throws(CLIError) {
        try writeDropIn(Self.policyDropIn, "[Service]\nEnvironment=RELAUNCH_KILL_POLICY=\(policy.rawValue)\n")
        try systemd { manager throws(BusError) in
            try manager.reload()
            try manager.run(.restart, "permissiond.service", timeout: timeout)
        }
    }

    private func corruptArchive() throws(CLIError) {
        let state = try UnitState.read(target.unit)
        guard state.mainPID == "0" else { throw .usage("corrupt-archive needs the app stopped (stop-app first)") }
        try Self.corruptArchive(inFolder: try stateDirectory())
    }

    /// Flips the bits of the middle byte of `restoration.archive` in `folder`, as root may: never
    /// through a symbolic link in the folder's path or the file's place (the app's user controls both).
    package static func corruptArchive(inFolder folder: String) throws(CLIError) {
        let stateFolder = try AppStateFolder(folder)
        try stateFolder.withFileForUpdate("restoration.archive") { (fd) throws(CLIError) in
            let archivePath = "\(folder)/restoration.archive"
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw .failed("cannot stat \(archivePath): \(errnoText())") }
            let size = Int(info.st_size)
            guard size > 16 else { throw .failed("\(archivePath) holds only \(size) bytes") }
            var byte: UInt8 = 0
            guard pread(fd, &byte, 1, off_t(size / 2)) == 1 else { throw .failed("cannot read \(archivePath): \(errnoText())") }
            byte ^= 0x5a
            guard pwrite(fd, &byte, 1, off_t(size / 2)) == 1 else { throw .failed("cannot write \(archivePath): \(errnoText())") }
        }
    }
}

/// Writes a systemd drop-in, creating its folder (and the folders above it).
package func writeDropIn(_ path: String, _ text: String) throws(CLIError) {
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    var built = ""
    for part in folder.split(separator: "/") {
        built += "/" + part
        if mkdir(built, 0o755) != 0 && errno != EEXIST { throw .failed("cannot create \(built): \(errnoText())") }
    }
    guard let file = fopen(path, "w") else { throw .failed("cannot write \(path): \(errnoText())") }
    fputs(text, file)
    fclose(file)
}
