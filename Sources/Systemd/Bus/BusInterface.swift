import CSDBus

/// The project's D-Bus interfaces whose vtables live in the CSDBus C target.
public enum BusInterface: Sendable, Hashable, CaseIterable {
    /// `org.relaunch.Permissions1` (Get, List, ListApps, Set, Reset, LastKill; signal Changed).
    case permissions1
    /// `org.relaunch.CheckInDemo1` (Tap, Type, Background, Foreground, Quit, Screen, State, Ready, TestHook).
    case checkInDemo1

    /// The interface name, e.g. `org.relaunch.Permissions1`.
    public var name: String { String(cString: csdbus_interface_name(raw)) }

    /// The conventional object path, e.g. `/org/relaunch/Permissions1`.
    public var objectPath: String { "/" + name.split(separator: ".").joined(separator: "/") }

    /// The input signature of `member` (`""` for none), or nil if the interface has no such method.
    public func inputSignature(of member: String) -> String? {
        csdbus_method_signature(raw, member).map { String(cString: $0) }
    }

    /// The output signature of `member` (`""` for none), or nil if the interface has no such method.
    public func outputSignature(of member: String) -> String? {
        csdbus_method_result(raw, member).map { String(cString: $0) }
    }

    var raw: csdbus_interface {
        switch self {
        case .permissions1: CSDBUS_INTERFACE_PERMISSIONS1
        case .checkInDemo1: CSDBUS_INTERFACE_CHECKINDEMO1
        }
    }
}
