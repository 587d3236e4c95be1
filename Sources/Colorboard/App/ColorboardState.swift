public import RelaunchApp
internal import FoundationEssentials
internal import RelaunchContract
internal import RestorationKit

/// Colorboard's state as `relaunchctl app state --json` shows it: the common keys, then its own.
///
/// Absent values encode as JSON `null`, never as missing keys.
public struct ColorboardState: Equatable, Sendable, Encodable {
    /// One color of the list (the data model).
    public struct Color: Equatable, Sendable, Encodable {
        /// Its id, as `tap color:ID` takes it.
        public var id: String
        /// Its name.
        public var name: String
        /// Components, 0 to 1.
        public var red: Double
        public var green: Double
        public var blue: Double
        /// `#RRGGBB`.
        public var hex: String
    }

    /// The color editor on screen (restorable state: what is typed until it goes away).
    public struct Editor: Equatable, Sendable, Encodable {
        /// The color it edits.
        public var colorID: String
        /// Whether it edits a color of the list (pushed) rather than a new one (presented).
        public var existing: Bool
        /// The name field.
        public var name: String
        /// The sliders, 0 to 1.
        public var red: Double
        public var green: Double
        public var blue: Double
        /// `#RRGGBB` of the sliders.
        public var hex: String
        /// `none`, `saved` or `denied`.
        public var swatch: String
    }

    /// The keys every app has.
    public var common: CommonAppState
    /// The running build.
    public var buildNumber: String
    /// The color list.
    public var colors: [Color]
    /// The swatches saved to the photo library.
    public var swatches: [String]
    /// The editor on screen, or nil.
    public var editor: Editor?

    /// Equal when they encode to the same JSON.
    public static func == (lhs: ColorboardState, rhs: ColorboardState) -> Bool { lhs.json == rhs.json }

    /// The state as one line of JSON with sorted keys.
    public var json: String { CommonAppState.json(self) }

    /// Encodes the common keys, then `buildNumber`, `colors`, `swatches` and `editor`.
    public func encode(to encoder: any Encoder) throws {
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
    public func state() -> ColorboardState {
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
    public func stateJSON() -> String { state().json }
}
