/// A configuration file that cannot be used: which file, which line, what is wrong and what works.
public struct PermissionConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Code: String, Sendable, Hashable {
        /// The file exists but could not be read or is not UTF-8.
        case unreadable
        /// A line is neither `key = value`, `[app NAME]`, blank nor a comment.
        case syntax
        /// A key is not one this section accepts.
        case unknownKey
        /// A value (or a section's app name) is not one that is accepted.
        case invalidValue
        /// A key or an app section appears twice.
        case duplicate
        /// An app section lacks a required key.
        case missingKey
    }

    /// What kind of problem this is.
    public var code: Code
    /// The configuration file.
    public var file: String
    /// The 1-based line number, or `nil` when the problem is the whole file.
    public var line: Int?
    /// What is wrong and what is accepted instead.
    public var message: String

    /// Creates an error.
    public init(code: Code, file: String, line: Int?, message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: MESSAGE`, as compilers print it, so editors can jump to the line.
    public var description: String {
        if let line { "\(file):\(line): \(message)" } else { "\(file): \(message)" }
    }
}
