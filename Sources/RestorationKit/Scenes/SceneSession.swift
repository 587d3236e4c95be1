/// One window's lasting identity: it outlives its scene, and the process (`UISceneSession`).
///
/// A session exists from the moment a window is opened until the user closes it
/// (`Application.requestSceneSessionDestruction(_:)`); across a relaunch it comes back with the same
/// `persistentIdentifier` and the activity its scene saved when it last went to the background.
public final class SceneSession: Hashable {
    /// What a session's scene is for (`UISceneSession.Role`), with UIKit's raw values.
    public struct Role: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// UIKit's name for the role.
        public let rawValue: String

        /// The role named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// An interactive window of the app (`windowApplication`).
        public static let windowApplication = Role(rawValue: "UIWindowSceneSessionRoleApplication")
        /// A window on an external display the user does not interact with.
        public static let windowExternalDisplayNonInteractive = Role(
            rawValue: "UIWindowSceneSessionRoleExternalDisplayNonInteractive")

        /// The raw value.
        public var description: String { rawValue }
    }

    /// The identifier that stays with the session across launches.
    public let persistentIdentifier: String
    /// What its scene is for.
    public let role: Role
    /// The activity its scene saved when it last went to the background; set at launch before the
    /// scene connects, so that `SceneDelegate.scene(_:willConnectTo:options:)` can read it.
    public var stateRestorationActivity: UserActivity?
    /// The configuration its scene was made with (from the app delegate's
    /// `ApplicationDelegate.application(_:configurationForConnecting:options:)`).
    public internal(set) var configuration: SceneConfiguration
    /// Its scene while connected.
    public internal(set) weak var scene: Scene?
    /// Why its saved state was discarded at this launch while the other sessions' was restored (a
    /// damaged record: `corrupt`, or `unsupported-format` for a record of a newer build); nil when it
    /// was restored or had none. A Relaunch addition: UIKit does not tell.
    public internal(set) var restorationDiscardReason: DiscardReason?
    /// What was wrong with the discarded record, for logs.
    public internal(set) var restorationDiscardDetail: String?

    /// A session with the given identity.
    init(persistentIdentifier: String, role: Role, stateRestorationActivity: UserActivity? = nil) {
        self.persistentIdentifier = persistentIdentifier
        self.role = role
        self.stateRestorationActivity = stateRestorationActivity
        configuration = SceneConfiguration(name: nil, sessionRole: role)
    }

    /// Sessions are equal when they are the same object.
    public static func == (left: SceneSession, right: SceneSession) -> Bool { left === right }

    /// Hashes the persistent identifier.
    public func hash(into hasher: inout Hasher) { hasher.combine(persistentIdentifier) }

    /// A new identifier: 128 random bits written as a UUID (version 4), like UIKit's.
    static func makeIdentifier() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { byte in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }
}

/// How to make a session's scene (`UISceneConfiguration`).
///
/// Deviation: UIKit instantiates `delegateClass`; here `makeDelegate` makes the delegate, so that an
/// app (or a test) can hand it what it needs without globals.
public struct SceneConfiguration {
    /// The configuration's name, as an app's scene manifest would name it.
    public var name: String?
    /// The role of the sessions it is for.
    public var role: SceneSession.Role
    /// Makes the scene's delegate; nil makes a scene without one.
    public var makeDelegate: (() -> any SceneDelegate)?

    /// A configuration named `name` for sessions of `sessionRole`.
    ///
    /// - Parameters:
    ///   - name: The configuration's name.
    ///   - sessionRole: The role of the sessions it is for.
    ///   - makeDelegate: Makes the scene's delegate.
    public init(name: String?, sessionRole: SceneSession.Role, makeDelegate: (() -> any SceneDelegate)? = nil) {
        self.name = name
        role = sessionRole
        self.makeDelegate = makeDelegate
    }
}
