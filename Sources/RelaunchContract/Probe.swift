/// What one look at a condition found: done (with a value), or not yet (and what it saw, for the
/// message if the wait runs out). relaunchctl's polled waits and RelaunchDriver's event-driven ones
/// both look with it.
package enum Probe<Value> {
    /// It is there.
    case done(Value)
    /// Not yet; what was seen.
    case notYet(String)
}

extension Probe: Equatable where Value: Equatable {}
extension Probe: Sendable where Value: Sendable {}
