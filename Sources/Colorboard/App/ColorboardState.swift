package import RelaunchApp
internal import FoundationEssentials
internal import RelaunchContract
internal import RestorationKit

/// Colorboard's state as `relaunchctl app state --json` shows it: the common keys, then its own.
///
/// Absent values encode as JSON `null`, never as missing keys.
package struct ColorboardState: Equatable, Sendable, Encodable {
    /// One color of the list (the data model).
    package struct Color: Equatable, Sendable, Encodable {
        /// Its id, as `tap color:ID` takes it.
        package var id: String
        /// Its name.
        package var name: String
        /// Components, 0 to 1.
        package var red: Double
        package var green: Double
        package var blue: Double
        /// `#RRGGBB`.
        package var hex: String
    }

    /// The color editor on screen (restorable state: what is typed until it goes away).
    package struct Editor: Equatable, Sendable, Encodable {
        /// The color it edits.
        package var colorID: String
        /// Whether it edits a color of the list (pushed) rather than a new one (presented).
        package var existing: Bool
        /// The name field.
        package var name: String
        /// The sliders, 0 to 1.
        package var red: Double
        package var green: Double
        package var blue: Double
        /// `#RRGGBB` of the sliders.
        package var hex: String
        /// `none`, `saved` or `denied`.
        package var swatch: String
    }

    /// The keys every app has.
    package var common: CommonAppState
    /// The running build.
    package var buildNumber: String
    /// The color list.
    package var colors: [Color]
    /// The swatches saved to the photo library.
    package var swatches: [String]
    /// The editor on screen, or nil.
    package var editor: Editor?

    /// Equal when they encode to the same JSON.
    package static func == (lhs: ColorboardState, rhs: ColorboardState) -> Bool { lhs.json == rhs.json }

    /// The state as one line of JSON with sorted keys.
    package var json: String { CommonAppState.json(self) }

    /// Encodes the common keys, then `buildNumber`, `colors`, `swatches` and `editor`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StateKey.self)
        try common.encode(into: &container)
        try container.encode(buildNumber, forKey: "buildNumber")
        try container.encode(colors, forKey: "colors")
        try container.encode(swatches, forKey: "swatches")
        try container.encode(editor, forKey: "editor")
    }
}

extension ColorboardApp {
    /// The state, as a value.
    package func state() -> ColorboardState {
        ColorboardState(
            common: CommonAppState(session: session, lastExit: lastExit, permissions: [.photos: photos]),
            buildNumber: buildNumber,
            colors: store.colors.map { .init(id: $0.id, name: $0.name, red: $0.red, green: $0.green, blue: $0.blue, hex: $0.hex) },
            swatches: store.swatches,
            editor: editor.map { editor in
                .init(
                    colorID: editor.colorDescription?.id ?? "", existing: editor.existingColor, name: editor.name,
                    red: editor.red, green: editor.green, blue: editor.blue, hex: editor.hex, swatch: editor.swatch.rawValue)
            })
    }

    /// The state as JSON (sorted keys; `reason`, `presented`, `editor`, `lastExit` null when absent).
    package func stateJSON() -> String { state().json }
}
