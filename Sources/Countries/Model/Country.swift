/// A row of the countries table: the app's data model, read from the data file it ships with.
///
/// The capital is the row's model identifier, as in the seed: it is what the table saves for its
/// selection and scroll position, and what `tap country:CAPITAL` names.
package struct Country: Sendable, Equatable {
    /// The country's name, shown in the table.
    package var name: String
    /// Its capital: unique in the data, the model identifier.
    package var capital: String

    /// A country and its capital.
    package init(name: String, capital: String) {
        self.name = name
        self.capital = capital
    }
}

extension Country {
    /// The data the app ships with: `Resources/countries.csv`, compiled in (SwiftPM's `embedInCode`),
    /// so that an installed binary needs no file beside it and the unit's sandbox has nothing to read.
    package static let catalog: [Country] = {
        // The file is checked in and tested (CountriesTests): it always parses.
        (try? parse(csv: String(decoding: PackageResources.countries_csv, as: UTF8.self))) ?? []
    }()

    /// The rows of a `country,capital` file with a header line; blank lines are skipped.
    ///
    /// - Throws: `CountryDataError` naming the line: not two fields, an empty field, or a capital
    ///   already taken (the capital is the model identifier, so it must be unique).
    package static func parse(csv text: String) throws(CountryDataError) -> [Country] {
        var countries: [Country] = []
        var capitals: Set<String> = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().dropFirst() {
            guard !line.isEmpty else { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 2, !fields[0].isEmpty, !fields[1].isEmpty else {
                throw CountryDataError(line: index + 1, message: "expected 'country,capital', both non-empty")
            }
            guard capitals.insert(fields[1]).inserted else {
                throw CountryDataError(line: index + 1, message: "the capital '\(fields[1])' appears twice; capitals identify rows")
            }
            countries.append(Country(name: fields[0], capital: fields[1]))
        }
        return countries
    }

    /// `countries` without those named in `excluded` (country names separated by commas; blanks around
    /// a name are ignored): the rows deleted from the data since the last launch.
    package static func excluding(_ excluded: String, from countries: [Country]) -> [Country] {
        let names = Set(excluded.split(separator: ",").map { $0.trimmingCharacters(in: " \t") })
        return countries.filter { !names.contains($0.name) }
    }
}

/// A data file that cannot be read: the line and what is wrong with it.
package struct CountryDataError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based line.
    package var line: Int
    /// What is wrong and what is accepted.
    package var message: String

    /// `countries.csv line N: message`.
    package var description: String { "countries.csv line \(line): \(message)" }
}

extension Substring {
    /// Without leading and trailing characters of `set`.
    func trimmingCharacters(in set: String) -> String {
        let blank: (Character) -> Bool = { set.contains($0) }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
