/// A failure that ends a hosted app: what failed and what to do.
struct HostError: Error, Sendable, CustomStringConvertible {
    /// Which part failed.
    enum Code: Sendable {
        /// A bad command line (exit 2).
        case usage
        /// The state directory cannot be created.
        case stateDirectory
        /// The system bus or the bus name.
        case bus
    }

    /// Which part failed.
    var code: Code
    /// One line saying what failed and what to do.
    var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { message }

    /// The process exit status for this error.
    var exitStatus: Int32 { code == .usage ? 2 : 1 }
}
