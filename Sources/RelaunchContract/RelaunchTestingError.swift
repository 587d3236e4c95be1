/// Why a call that drives or watches a Relaunch app failed (RelaunchTesting's `TestedApp`,
/// `relaunchctl permission set --wait`): a code to branch on and a message that says what failed, on
/// what, and what to do.
///
/// A wait that ran out says what it waited for and what it saw last:
/// ```
/// checkin-demo did not come back within 30 s after the camera change: waited for a new instance
/// of checkin-demo.service to finish launching; last seen: checkin-demo.service failed (start-limit-hit)
/// ```
public struct RelaunchTestingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Kind: String, Sendable, Hashable {
            case unknownApp = "unknown app"
            case unreachable
            case notAuthorized = "not authorized"
            case timedOut = "timed out"
            case appFailed = "app failed"
            case rejected
            case unexpectedReply = "unexpected reply"
        }

        fileprivate let kind: Kind

        /// No app of that id is registered in apps.d, or it serves no `org.relaunch.App1`.
        public static let unknownApp = Code(kind: .unknownApp)
        /// The system bus, permissiond, systemd or the app could not be reached.
        public static let unreachable = Code(kind: .unreachable)
        /// The caller may not do this (root, or polkit's `org.relaunch.*` actions, are needed).
        public static let notAuthorized = Code(kind: .notAuthorized)
        /// A wait ended before what it waited for happened.
        public static let timedOut = Code(kind: .timedOut)
        /// The app's unit failed instead of coming back (a crash loop, say): the wait ended early.
        public static let appFailed = Code(kind: .appFailed)
        /// The app or permissiond refused the request as invalid (an unknown element, say).
        public static let rejected = Code(kind: .rejected)
        /// A reply could not be read (another build of the app or the daemon, say).
        public static let unexpectedReply = Code(kind: .unexpectedReply)

        /// The code's name, e.g. `timed out`.
        public var description: String { kind.rawValue }
    }

    /// What kind of failure it is.
    public var code: Code
    /// One line: what failed, on what, and what to do.
    public var message: String

    /// A failure of kind `code` that says `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
