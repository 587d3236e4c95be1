import RelaunchContract

/// Turns the words of one line into a step, or says what the line should have been.
enum StepParser {
    /// The most `repeat`s one line may nest (`repeat 2 repeat 3 kill-app` nests two).
    static let maximumRepeatNesting = 8

    static let verbs = "app, policy, profile, one-time-delay, set, reset, tap, type, background, foreground, quit, wait-ready, screen, restart-app, "
        + "stop-app, start-app, kill-app, expect, build, env, corrupt-archive, hook, repeat, scene"

    static func step(_ words: [String]) throws(LineError) -> Step {
        let verb = words[0]
        let args = Array(words.dropFirst())
        switch verb {
        case "app":
            try arity(args, 1, "app APP")
            guard AppIDSyntax.isValid(args[0]) else {
                throw LineError(message: "'\(args[0].prefix(64))' is not an app id: \(AppIDSyntax.acceptedForm)")
            }
            return .app(args[0])
        case "policy", "profile":
            try arity(args, 1, "\(verb) ios|android")
            guard let policy = KillPolicy(rawValue: args[0]) else {
                throw LineError(message: "unknown \(verb == "policy" ? "kill policy" : "profile") '\(args[0])'; accepted: ios, android")
            }
            return .policy(policy)
        case "one-time-delay":
            try arity(args, 1, "one-time-delay SECONDS")
            guard let seconds = Double(args[0]), seconds >= 0, seconds <= 86_400 else {
                throw LineError(message: "'\(args[0].prefix(64))' is not a number of seconds from 0 to 86400")
            }
            return .oneTimeDelay(args[0])
        case "set":
            try arity(args, 2, "set PERMISSION STATE")
            return .setPermission(try permission(args[0]), try state(args[1]))
        case "reset":
            guard args.count <= 1 else { throw usage("reset [PERMISSION]") }
            return .resetPermissions(try args.first.map { (name) throws(LineError) in try permission(name) })
        case "tap":
            try arity(args, 1, "tap ELEMENT")
            return .tap(args[0])
        case "type":
            try arity(args, 2, "type FIELD \"TEXT\"")
            return .type(field: args[0], text: args[1])
        case "quit":
            guard args.isEmpty || args == ["--force"] else { throw usage("quit [--force]") }
            return .quit(force: !args.isEmpty)
        case "build":
            try arity(args, 1, "build NUMBER|default")
            return .setBuild(args[0] == "default" ? nil : args[0])
        case "env":
            try arity(args, 1, "env NAME=VALUE")
            return try environment(args[0])
        case "hook":
            try arity(args, 1, "hook NAME")
            return .testHook(args[0])
        case "expect":
            return try expectation(args)
        case "scene":
            return try scene(args)
        case "repeat":
            guard args.count >= 2, let count = Int(args[0]), (1...1000).contains(count) else {
                throw usage("repeat N STEP... (N from 1 to 1000)")
            }
            // Counted before recursing, so that a line of thousands of repeats cannot exhaust the stack.
            let depth = stride(from: 0, to: words.count - 1, by: 2).prefix { words[$0] == "repeat" }.count
            guard depth <= maximumRepeatNesting else {
                throw LineError(message: "\(depth) repeats are nested on this line; at most \(maximumRepeatNesting) are accepted")
            }
            return .repeat(count, try step(Array(args.dropFirst())))
        default:
            let bare: [String: Step] = [
                "background": .background, "foreground": .foreground, "wait-ready": .waitReady, "screen": .screen,
                "restart-app": .restartApp, "stop-app": .stopApp, "start-app": .startApp,
                "kill-app": .killApp, "corrupt-archive": .corruptArchive,
            ]
            guard let step = bare[verb] else {
                throw LineError(message: "unknown step '\(verb)'; accepted: \(verbs)")
            }
            guard args.isEmpty else { throw usage("\(verb) takes no arguments") }
            return step
        }
    }

    private static func expectation(_ args: [String]) throws(LineError) -> Step {
        let forms = "expect kill | no-kill | state PATH VALUE | journal EVENT [F=V...] | no-journal EVENT [F=V...] | unit PROPERTY VALUE"
        guard let kind = args.first else { throw usage(forms) }
        let rest = Array(args.dropFirst())
        switch kind {
        case "kill", "no-kill":
            guard rest.isEmpty else { throw usage("expect \(kind) takes no arguments") }
            return kind == "kill" ? .expectKill : .expectNoKill
        case "state":
            try arity(rest, 2, "expect state KEY.PATH VALUE")
            return .expectState(path: rest[0], value: rest[1])
        case "unit":
            try arity(rest, 2, "expect unit PROPERTY VALUE")
            return .expectUnit(property: rest[0], value: rest[1])
        case "journal", "no-journal":
            guard let name = rest.first else { throw usage("expect \(kind) EVENT [FIELD=VALUE ...]") }
            guard let event = JournalEvent(rawValue: name) else {
                let accepted = JournalEvent.allCases.map(\.rawValue).joined(separator: ", ")
                throw LineError(message: "unknown journal event '\(name)'; accepted: \(accepted)")
            }
            var fields: [String: String] = [:]
            for pair in rest.dropFirst() {
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw LineError(message: "'\(pair)' is not FIELD=VALUE")
                }
                fields[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            return .expectJournal(event, fields: fields, present: kind == "journal")
        default:
            throw usage(forms)
        }
    }

    /// `scene open`, `scene close N`, `scene N tap|type|screen …` (windows counted from 1).
    private static func scene(_ args: [String]) throws(LineError) -> Step {
        let forms = "scene open | close N | N tap ELEMENT | N type FIELD \"TEXT\" | N screen"
        guard let first = args.first else { throw usage(forms) }
        if first == "open" {
            guard args.count == 1 else { throw usage("scene open takes no arguments") }
            return .openScene
        }
        if first == "close" {
            guard args.count == 2, let number = Int(args[1]), number > 0 else { throw usage("scene close N (N from 1)") }
            return .closeScene(number)
        }
        guard let number = Int(first), number > 0, args.count >= 2 else { throw usage(forms) }
        let inner = try step(Array(args.dropFirst()))
        switch inner {
        case .tap, .type, .screen: return .inScene(number, inner)
        default: throw LineError(message: "scene \(number) aims only tap, type or screen at a window; not '\(args[1].prefix(64))'")
        }
    }

    /// `NAME=VALUE`: NAME of letters, digits and `_`, not starting with a digit (as systemd takes it);
    /// VALUE without a line break (it goes on one line of a drop-in).
    private static func environment(_ word: String) throws(LineError) -> Step {
        guard let equals = word.firstIndex(of: "=") else { throw usage("env NAME=VALUE") }
        let name = String(word[..<equals])
        let value = String(word[word.index(after: equals)...])
        guard let first = name.first, !first.isNumber,
              name.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) })
        else {
            throw LineError(message: "'\(name.prefix(64))' is not a variable name; use letters, digits and _, not starting with a digit")
        }
        guard !value.contains(where: \.isNewline) else { throw LineError(message: "the value of \(name) must be one line") }
        return .setEnvironment(name: name, value: value)
    }

    private static func permission(_ name: String) throws(LineError) -> Permission {
        guard let permission = Permission(rawValue: name) else {
            throw LineError(message: "unknown permission '\(name)'; accepted: \(Permission.acceptedNames)")
        }
        return permission
    }

    /// A state word of some profile (`limited`, `full`, …); permissiond says whether the app's
    /// profile takes it for the permission.
    private static func state(_ name: String) throws(LineError) -> PermissionState {
        guard let state = PermissionProfile.state(named: name) else {
            throw LineError(message: "unknown state '\(name)'; accepted: \(PermissionProfile.acceptedWords)")
        }
        return state
    }

    private static func arity(_ args: [String], _ count: Int, _ form: String) throws(LineError) {
        guard args.count == count else { throw usage(form) }
    }

    private static func usage(_ form: String) -> LineError {
        LineError(message: "expected: \(form)")
    }
}
