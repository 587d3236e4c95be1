import RelaunchContract

/// A permission-toggle scenario: a name, a description and its steps with their line numbers.
///
/// Syntax, one step per line; `#` starts a comment; arguments are words or "double quoted":
/// ```
/// # The first comment lines describe the scenario.
/// policy ios|android | profile ios|android       (the same: permissiond's profile from now on)
/// one-time-delay SECONDS         (permissiond's one-time grants expire after SECONDS in the background)
/// set PERMISSION STATE            reset [PERMISSION]      (STATE: any state word, limited, full, …)
/// tap ELEMENT                     type FIELD "TEXT"
/// background | foreground         quit [--force]
/// wait-ready | restart-app | stop-app | start-app | kill-app
/// expect kill | expect no-kill
/// expect state KEY.PATH VALUE     (VALUE `null` for null; strings unquoted or "quoted")
/// expect journal EVENT [FIELD=VALUE ...]     expect no-journal EVENT [FIELD=VALUE ...]
/// expect unit PROPERTY VALUE      (as `systemctl show -p PROPERTY` prints it)
/// build NUMBER | build default    env NAME=VALUE    corrupt-archive    hook NAME
/// repeat N STEP...                (the rest of the line, N times)
/// ```
package struct Scenario: Sendable {
    /// The scenario's name (its file name without extension).
    package var name: String
    /// The leading comment lines.
    package var summary: String
    /// The steps, each with its 1-based line number.
    package var steps: [(line: Int, step: Step)]
    /// Each step's line as written, by line number, for `--verbose`.
    package var texts: [Int: String] = [:]

    /// The most steps a scenario plays, its repeats expanded (`repeat 1000 repeat 1000 …` would
    /// otherwise run for days).
    package static let maximumExpandedSteps = 100_000

    /// Parses a scenario's text; `name` is used in errors.
    package static func parse(_ text: String, name: String) throws(ScenarioError) -> Scenario {
        var summary: [String] = []
        var steps: [(Int, Step)] = []
        var texts: [Int: String] = [:]
        var expandedSteps = 0
        // Any line break ends a line: "\r\n" is one Character, which a split at "\n" never finds.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = index + 1
            let trimmed = rawLine.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("#") {
                if steps.isEmpty { summary.append(String(trimmed.dropFirst()).trimmingSpaces()) }
                continue
            }
            let words: [String]
            do {
                words = try Tokenizer.words(String(trimmed))
            } catch {
                throw ScenarioError(scenario: name, line: line, message: error.message)
            }
            guard !words.isEmpty else { continue }
            let step: Step
            do {
                step = try StepParser.step(words)
            } catch {
                throw ScenarioError(scenario: name, line: line, message: error.message)
            }
            // Each line's repeats are bounded (1000), nested ones multiply: bound the whole run.
            let (total, overflow) = expandedSteps.addingReportingOverflow(step.expandedCount)
            guard !overflow, total <= maximumExpandedSteps else {
                throw ScenarioError(
                    scenario: name, line: line,
                    message: "this line takes the scenario over \(maximumExpandedSteps) steps in all, repeats expanded; repeat less")
            }
            expandedSteps = total
            steps.append((line, step))
            texts[line] = String(trimmed).trimmingSpaces()
        }
        guard !steps.isEmpty else {
            throw ScenarioError(scenario: name, line: 0, message: "the scenario has no steps")
        }
        var scenario = Scenario(name: name, summary: summary.filter { !$0.isEmpty }.joined(separator: " "), steps: steps)
        scenario.texts = texts
        return scenario
    }
}

/// A scenario file that cannot be parsed: where and why.
package struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The scenario's name.
    package var scenario: String
    /// The 1-based line, or 0 for the whole file.
    package var line: Int
    /// What is wrong and what is accepted.
    package var message: String

    package var description: String {
        line > 0 ? "\(scenario):\(line): \(message)" : "\(scenario): \(message)"
    }
}

/// An error inside one line, before its location is known.
struct LineError: Error {
    var message: String
}

extension String {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
