/// A view as state restoration sees it (`UIView`): an identifier, a tree of subviews, and hooks to
/// encode and decode its own state.
///
/// A view with a restoration identifier is preserved only when the controller that owns it (whose
/// `view` tree it is in) is preserved, and restored only when that controller is restored, as in
/// UIKit. Subclass it and call `super` from the overridden hooks.
open class View {
    /// The name it is preserved under inside its controller; nil means it is not preserved.
    public var restorationIdentifier: String?
    /// The views it contains, in order.
    public private(set) var subviews: [View] = []
    /// The view that contains it.
    public private(set) weak var superview: View?

    /// A view with no identifier and no subviews.
    public init() {}

    /// Adds `view` at the end of `subviews`, moving it from its old superview.
    public func addSubview(_ view: View) {
        guard view !== self else { return }
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
    }

    /// Removes it from its superview.
    public func removeFromSuperview() {
        superview?.subviews.removeAll { $0 === self }
        superview = nil
    }

    /// Saves what it needs to come back (a scroll position, a selection), never model data.
    open func encodeRestorableState(with coder: inout StateCoder) {}

    /// Restores what `encodeRestorableState(with:)` saved; called after its controller decoded its own state.
    open func decodeRestorableState(with coder: StateCoder) {}

    /// Called once every restored object has decoded its state.
    open func applicationFinishedRestoringState() {}

    /// It and every view below it that has a restoration identifier, depth first.
    public final var restorableViews: [View] {
        (restorationIdentifier == nil ? [] : [self]) + subviews.flatMap(\.restorableViews)
    }
}

/// A row in a sectioned list (`IndexPath` for tables).
public struct IndexPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The section.
    public var section: Int
    /// The row within the section.
    public var row: Int

    /// The row `row` of section `section`.
    public init(row: Int, section: Int) {
        self.row = row
        self.section = section
    }

    /// Section first, then row.
    public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// `section.row`.
    public var description: String { "\(section).\(row)" }
}
