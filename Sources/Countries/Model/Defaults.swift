/// The app's settings, kept like `NSUserDefaults`: in the app's data model (`AppEffect.saveData`,
/// `$STATE_DIRECTORY/app.data`), never in the restoration archive, so that a force quit, a corrupt
/// archive or another build never loses them.
package final class Defaults {
    /// The seed's `kUYLSettingsAmazingKey`.
    static let amazingKey = "amazing"

    /// The settings tab's switch; on unless saved off (the seed registers YES as the default).
    package var amazing = true

    /// The defaults of a first launch.
    package init() {}

    /// The saved form: one `key=value` line a setting.
    package var bytes: [UInt8] { Array("\(Self.amazingKey)=\(amazing ? "1" : "0")\n".utf8) }

    /// Takes the saved form back; unknown keys are ignored (a later build may add some).
    ///
    /// - Throws: `DefaultsError` when a line is not `key=value` or the switch's value is not 0 or 1.
    package func load(_ bytes: [UInt8]) throws(DefaultsError) {
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw DefaultsError(message: "a line is not key=value") }
            guard parts[0] == Self.amazingKey else { continue }
            switch parts[1] {
            case "1": amazing = true
            case "0": amazing = false
            default: throw DefaultsError(message: "\(Self.amazingKey) is neither 0 nor 1")
            }
        }
    }
}

/// Saved defaults that cannot be read.
package struct DefaultsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    package var message: String
    /// `the saved settings cannot be read: message`.
    package var description: String { "the saved settings cannot be read: \(message)" }
}
