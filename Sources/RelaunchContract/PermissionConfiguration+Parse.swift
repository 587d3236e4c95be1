extension PermissionConfiguration {
    /// The keys accepted before the first section.
    static let globalKeys = ["kill-policy"]
    /// The keys accepted in an `[app NAME]` section.
    static let appKeys = ["unit"]

    /// Parses the text of a configuration file; `file` names it in errors.
    ///
    /// Unlike ``load(path:)``, an empty text gives no apps at all, not the built-in ones: a file
    /// that exists replaces the defaults.
    /// - Throws: `PermissionConfigurationError` for the first line that is wrong.
    package static func parse(_ text: String, file: String) throws(PermissionConfigurationError) -> Self {
        var parser = Parser(file: file)
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            try parser.consume(line, number: index + 1)
        }
        return try parser.finish()
    }
}

/// The line-by-line state of one parse: where we are and what has been seen.
private struct Parser {
    let file: String
    var killPolicy: (value: KillPolicy, line: Int)?
    var units: [String: String] = [:]
    /// The app section being read: its name, header line and keys seen so far (key → line).
    var section: (app: String, line: Int, keys: [String: Int])?
    var sectionLines: [String: Int] = [:]

    init(file: String) { self.file = file }

    mutating func consume(_ raw: Substring, number: Int) throws(PermissionConfigurationError) {
        let line = Self.stripComment(raw).trimmingWhitespace()
        if line.isEmpty { return }
        if line.hasPrefix("[") {
            try openSection(line, number: number)
            return
        }
        guard let equals = line.firstIndex(of: "=") else {
            throw error(.syntax, number, "expected `key = value` or `[app NAME]`, found '\(line)'")
        }
        let key = String(line[..<equals].trimmingWhitespace())
        let value = String(line[line.index(after: equals)...].trimmingWhitespace())
        guard !key.isEmpty else { throw error(.syntax, number, "missing key before '='") }
        if section != nil {
            try setAppKey(key, value, number: number)
        } else {
            try setGlobalKey(key, value, number: number)
        }
    }

    mutating func finish() throws(PermissionConfigurationError) -> PermissionConfiguration {
        try closeSection()
        return PermissionConfiguration(killPolicy: killPolicy?.value ?? .ios, units: units)
    }

    private mutating func openSection(_ line: Substring, number: Int) throws(PermissionConfigurationError) {
        let words = line.hasSuffix("]") ? line.dropFirst().dropLast().split(separator: " ") : []
        guard words.count == 2, words[0] == "app" else {
            throw error(.syntax, number, "expected a section header `[app NAME]`, found '\(line)'")
        }
        let app = String(words[1])
        guard AppIDSyntax.isValid(app) else {
            throw error(.invalidValue, number, "invalid app id '\(app)'; an app id is \(AppIDSyntax.acceptedForm)")
        }
        if let first = sectionLines[app] {
            throw error(.duplicate, number, "[app \(app)] appears again (first on line \(first)); merge the two sections")
        }
        try closeSection()
        sectionLines[app] = number
        section = (app, number, [:])
    }

    private mutating func closeSection() throws(PermissionConfigurationError) {
        guard let section else { return }
        guard units[section.app] != nil else {
            throw error(.missingKey, section.line, "[app \(section.app)] has no `unit = NAME.service` line; add one")
        }
        self.section = nil
    }

    private mutating func setGlobalKey(_ key: String, _ value: String, number: Int) throws(PermissionConfigurationError) {
        guard key == "kill-policy" else {
            throw error(.unknownKey, number, "unknown key '\(key)'; accepted before any section: \(Parser.list(PermissionConfiguration.globalKeys)), and in [app NAME] sections: \(Parser.list(PermissionConfiguration.appKeys))")
        }
        if let first = killPolicy?.line {
            throw error(.duplicate, number, "kill-policy is set again (first on line \(first)); keep one")
        }
        guard let policy = KillPolicy(rawValue: value) else {
            let accepted = KillPolicy.allCases.map(\.rawValue).joined(separator: ", ")
            throw error(.invalidValue, number, "invalid kill-policy '\(value)'; accepted: \(accepted)")
        }
        killPolicy = (policy, number)
    }

    private mutating func setAppKey(_ key: String, _ value: String, number: Int) throws(PermissionConfigurationError) {
        guard var section else { return }
        guard key == "unit" else {
            throw error(.unknownKey, number, "unknown key '\(key)' in [app \(section.app)]; accepted there: \(Parser.list(PermissionConfiguration.appKeys)) (global keys such as kill-policy go before the first section)")
        }
        if let first = section.keys[key] {
            throw error(.duplicate, number, "unit is set again for \(section.app) (first on line \(first)); keep one")
        }
        guard Self.isServiceName(value) else {
            throw error(.invalidValue, number, "invalid unit '\(value)'; accepted: a systemd service name such as myapp.service (letters, digits, ':', '-', '_', '.', '@', '\\', ending in .service)")
        }
        section.keys[key] = number
        units[section.app] = value
        self.section = section
    }

    private func error(_ code: PermissionConfigurationError.Code, _ line: Int, _ message: String) -> PermissionConfigurationError {
        PermissionConfigurationError(code: code, file: file, line: line, message: message)
    }

    private static func list(_ keys: [String]) -> String { keys.joined(separator: ", ") }

    /// The line without a comment: `#` at its start or after whitespace begins one.
    private static func stripComment(_ line: Substring) -> Substring {
        var previous: Character = " "
        for index in line.indices {
            if line[index] == "#", previous == " " || previous == "\t" { return line[..<index] }
            previous = line[index]
        }
        return line
    }

    /// Whether `name` is a valid systemd service unit name (at most 255 characters): a
    /// registration's unit name (``AppRegistry``) of type `.service`.
    private static func isServiceName(_ name: String) -> Bool {
        name.hasSuffix(".service") && AppRegistry.isUnitName(name)
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingWhitespace() -> Substring {
        let isText: (Character) -> Bool = { $0 != " " && $0 != "\t" }
        guard let first = firstIndex(where: isText), let last = lastIndex(where: isText) else { return self[endIndex...] }
        return self[first...last]
    }
}
