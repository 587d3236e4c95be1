/// A configuration file that cannot be used: which file, which line, what is wrong and what works.
package struct PermissionConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is.
    package enum Code: String, Sendable, Hashable {
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
    package var code: Code
    /// The configuration file.
    package var file: String
    /// The 1-based line number, or `nil` when the problem is the whole file.
    package var line: Int?
    /// What is wrong and what is accepted instead.
    package var message: String

    /// Creates an error.
    package init(code: Code, file: String, line: Int?, message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: MESSAGE`, as compilers print it, so editors can jump to the line.
    package var description: String {
        if let line { "\(file):\(line): \(message)" } else { "\(file): \(message)" }
    }
}
