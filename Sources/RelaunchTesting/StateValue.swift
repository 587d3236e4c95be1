public import RelaunchContract

/// A value of an app's state JSON, for the keys an app adds of its own (`modal.venue` in
/// checkin-demo, say): RelaunchContract's `JSONValue`, which relaunchctl's scenarios read too.
public typealias StateValue = JSONValue
