internal import FoundationEssentials

/// The app's data model: the list of colors and the swatches saved to the photo library. It is
/// saved as JSON in `app.data` (`AppEffect.saveData`) whenever it changes, never in the archive.
package final class ColorStore {
    /// The most colors the list holds.
    package static let maximumColors = 100
    /// The most swatches remembered.
    package static let maximumSwatches = 100

    /// The colors, in list order.
    package private(set) var colors: [BNRColorDescription]
    /// The swatches saved to the photo library, oldest first (`Name #RRGGBB`).
    package private(set) var swatches: [String] = []
    private var nextNumber: Int

    /// The list the app starts with: the seed's one blue color.
    package init() {
        colors = [BNRColorDescription(id: "c1")]
        nextNumber = 2
    }

    /// The color `id`, if the list has it.
    package func color(_ id: String) -> BNRColorDescription? { colors.first { $0.id == id } }

    /// A new blue color at the end of the list (the seed's `NewColor` segue adds it at once), or nil
    /// when the list is full.
    func addColor() -> BNRColorDescription? {
        guard colors.count < Self.maximumColors else { return nil }
        let color = BNRColorDescription(id: "c\(nextNumber)")
        nextNumber += 1
        colors.append(color)
        return color
    }

    /// Removes the color `id` (a new color whose editor was cancelled).
    func removeColor(_ id: String) {
        colors.removeAll { $0.id == id }
    }

    /// Remembers a swatch saved to the photo library, forgetting the oldest past the maximum.
    func addSwatch(_ swatch: String) {
        swatches.append(swatch)
        if swatches.count > Self.maximumSwatches { swatches.removeFirst(swatches.count - Self.maximumSwatches) }
    }

    // MARK: Saved form

    private struct Saved: Codable {
        struct Color: Codable {
            var id: String
            var name: String
            var red: Double
            var green: Double
            var blue: Double
        }

        var format: Int
        var nextNumber: Int
        var colors: [Color]
        var swatches: [String]
    }

    /// The format `data()` writes.
    static let format = 1

    /// The model as the bytes `load(_:)` reads.
    package func data() -> [UInt8] {
        let saved = Saved(
            format: Self.format, nextNumber: nextNumber,
            colors: colors.map { .init(id: $0.id, name: $0.name, red: $0.red, green: $0.green, blue: $0.blue) },
            swatches: swatches)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Strings, whole numbers and finite doubles only: encoding cannot fail.
        return (try? encoder.encode(saved)).map(Array.init) ?? []
    }

    /// Replaces the model with the one in `bytes`; on any fault it is left as it was.
    ///
    /// - Throws: `ColorDataError` saying what is wrong with the bytes.
    package func load(_ bytes: [UInt8]) throws(ColorDataError) {
        let saved: Saved
        do {
            saved = try JSONDecoder().decode(Saved.self, from: Data(bytes))
        } catch {
            throw .unreadable("not the color list's JSON (\(bytes.count) bytes)")
        }
        guard saved.format == Self.format else { throw .unreadable("format \(saved.format); this build reads \(Self.format)") }
        guard saved.colors.count <= Self.maximumColors, saved.swatches.count <= Self.maximumSwatches else {
            throw .unreadable("more than \(Self.maximumColors) colors or swatches")
        }
        var ids: Set<String> = []
        var highest = 0
        for color in saved.colors {
            guard let number = Int(color.id.dropFirst()), color.id.first == "c", number > 0, ids.insert(color.id).inserted else {
                throw .unreadable("color id '\(color.id.prefix(16))' is not c<number> or appears twice")
            }
            guard [color.red, color.green, color.blue].allSatisfy({ (0...1).contains($0) }),
                color.name.count <= BNRColorDescription.maximumNameLength
            else { throw .unreadable("color \(color.id) has a component outside 0...1 or a name too long") }
            highest = max(highest, number)
        }
        colors = saved.colors.map { BNRColorDescription(id: $0.id, name: $0.name, red: $0.red, green: $0.green, blue: $0.blue) }
        swatches = saved.swatches
        nextNumber = max(saved.nextNumber, highest + 1)
    }
}

/// Saved data the app cannot read; the host keeps the bytes aside and the app starts with its defaults.
package enum ColorDataError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with them.
    case unreadable(String)

    /// One line for the journal.
    package var description: String {
        switch self {
        case .unreadable(let why): "the saved color list cannot be read: \(why)"
        }
    }
}
