public import RelaunchContract
public import RestorationKit

/// An app the Relaunch host library can run under systemd: a RestorationKit app that does no I/O
/// of its own. The host feeds it permissions, saved state and input, and carries out the effects
/// it returns (preserve, discard, terminate); it serves `org.relaunch.App1` from these members.
public protocol HostableApp: AnyObject, SendableMetatype {
    /// Why input is refused: one line saying what is accepted (InvalidArgs over the bus).
    associatedtype InputError: Error & CustomStringConvertible

    /// The permissions it reads from permissiond at launch and follows afterwards.
    static var permissions: [Permission] { get }

    /// Where it is in its life.
    var lifecycle: Application.LifecycleState { get }
    /// How the last instance ended, when permissiond killed it (the state JSON's `lastExit`).
    var lastExit: LastExit? { get set }

    /// Takes a permission's state, at launch or when permissiond says it changed without a kill.
    func setPermission(_ permission: Permission, to state: PermissionState)
    /// Takes the app's data model as it was last saved (`AppEffect.saveData`), before `launch`; not
    /// called when none was saved. UIKit's apps keep such data in their defaults or a database, never
    /// in the restoration archive: restoration brings back where the user was, the data what they made.
    /// - Throws: when the bytes cannot be read; the host then keeps them aside (nothing is lost) and
    ///   the app goes on with its defaults.
    func loadData(_ bytes: [UInt8]) throws
    /// Launches: restores from the newest valid candidate, or not, as the engine decides.
    func launch(candidates: [ArchiveCandidate], restoringMark: any RestoringMarkStore) -> LaunchReport
    /// Preserves the current state as archive bytes.
    func preserve() throws(PreservationError) -> Preservation

    /// The persistent identifiers of the open scene sessions of a scene-based app (empty otherwise):
    /// the host compares them around each input, and preserves at once when one went, so that a
    /// closed window's saved state is gone from disk even if the app never goes to the background.
    var openSceneSessions: [String] { get }

    /// The screen drawn as text (`Screen()`).
    func screen() -> String
    /// The state JSON (`State()`), with at least the contract's common keys.
    func stateJSON() -> String
    /// One line for systemd's STATUS=.
    func statusLine() -> String
    /// What the current screen accepts (`Elements()`).
    func elements() -> [ScreenElement]

    /// `Tap(element)`.
    func tap(_ element: String) throws(InputError) -> [AppEffect]
    /// `Type(field, text)`.
    func type(_ field: String, _ text: String) throws(InputError) -> [AppEffect]
    /// `Background()`: the host preserves.
    func background() -> [AppEffect]
    /// `Foreground()`.
    func foreground() -> [AppEffect]
    /// `Quit(false)`: preserve, then exit.
    func quit() -> [AppEffect]
    /// `Quit(true)`: the user's force quit, which discards saved state.
    func forceQuit() -> [AppEffect]
}

extension HostableApp {
    /// An app without a data model of its own ignores the call.
    public func loadData(_ bytes: [UInt8]) throws {}

    /// An app without scenes has no sessions.
    public var openSceneSessions: [String] { [] }
}

/// Something the current screen accepts: a tap or a field to type into (App1's `Elements()`).
public struct ScreenElement: Sendable, Hashable {
    /// The element or field name, as `tap` and `type` take it.
    public var name: String
    /// Whether it is typed into (`type`) rather than tapped (`tap`).
    public var isField: Bool
    /// One line for people.
    public var description: String

    /// Creates an element.
    public init(name: String, isField: Bool, description: String) {
        self.name = name
        self.isField = isField
        self.description = description
    }
}
