public import RelaunchContract

/// A value of an app's state JSON, for the keys an app adds of its own (`modal.venue` in
/// checkin-demo, say): RelaunchContract's `JSONValue`, which relaunchctl's scenarios read too. Renamed:
/// RestorationKit's `StateValue` is another thing (a saved value of a controller).
@available(*, deprecated, renamed: "JSONValue")
public typealias StateValue = JSONValue
