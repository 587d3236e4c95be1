package import Systemd

/// An interface's methods as a table, one case a row (``App1Method``, ``Permissions1Method``): the
/// case order is the order introspection shows, and each row gives its part of the description.
package protocol BusMethodTable: CaseIterable, Sendable, Hashable {
    /// Its row of the interface description: member name, arguments in and out.
    var busMethod: BusInterface.Method { get }
}

extension BusMethodTable {
    /// A method of the description, as a row spells it.
    package typealias Method = BusInterface.Method
    /// An argument of a method or signal, as a row spells it.
    package typealias Argument = BusInterface.Argument

    /// The method named `member`, if the interface has it.
    package init?(member: String) {
        guard let method = Self.allCases.first(where: { $0.member == member }) else { return nil }
        self = method
    }

    /// The member name on the bus, e.g. `Tap` or `Set`.
    package var member: String { busMethod.name }
}
