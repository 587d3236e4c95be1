/// An object that takes part in preservation and restoration (`UIStateRestoring`): controllers do,
/// and any other object can, once registered with `Application.registerObject(forStateRestoration:restorationIdentifier:)`.
///
/// An object's restoration path is its `restorationParent`'s path (if it has a parent) plus the
/// identifier it was registered with; an object whose parent is not preserved is not either.
public protocol StateRestoring: AnyObject {
    /// The object its path is scoped under (a controller or another registered object), or nil for the top level.
    var restorationParent: (any StateRestoring)? { get }
    /// The class that re-creates it at restoration; nil means it must already be registered then.
    var objectRestorationClass: (any ObjectRestoration.Type)? { get }
    /// Saves what it needs to come back.
    func encodeRestorableState(with coder: inout StateCoder)
    /// Restores what `encodeRestorableState(with:)` saved, after the controllers decoded theirs.
    func decodeRestorableState(with coder: StateCoder)
    /// Called once every restored object has decoded its state.
    func applicationFinishedRestoringState()
}

extension StateRestoring {
    /// None: the object is at the top level.
    public var restorationParent: (any StateRestoring)? { nil }
    /// None: the object must be registered again before restoration.
    public var objectRestorationClass: (any ObjectRestoration.Type)? { nil }
    /// Saves nothing.
    public func encodeRestorableState(with coder: inout StateCoder) {}
    /// Restores nothing.
    public func decodeRestorableState(with coder: StateCoder) {}
    /// Does nothing.
    public func applicationFinishedRestoringState() {}
}

/// A class that re-creates a restorable object that is not a controller (`UIObjectRestoration`).
public protocol ObjectRestoration: AnyObject {
    /// The object for `identifierComponents`, or nil to leave it out of this restoration.
    static func object(withRestorationIdentifierPath identifierComponents: [String], coder: StateCoder) -> (any StateRestoring)?
}

/// View controllers can be the restoration parent of other objects, as in UIKit.
extension ViewController: StateRestoring {}
