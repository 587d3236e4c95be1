@testable import Countries
import Testing

/// The data file the app ships with, and how rows are deleted from it.
@Suite("Countries data")
struct DataTests {
    @Test("the compiled-in data file has a few hundred rows, sorted by country, capitals unique")
    func catalog() throws {
        let countries = Country.catalog
        #expect(countries.count >= 200)
        #expect(countries.map(\.name) == countries.map(\.name).sorted())
        #expect(Set(countries.map(\.capital)).count == countries.count)
        #expect(countries.contains(Country(name: "Australia", capital: "Canberra")))
        #expect(countries.allSatisfy { !$0.capital.contains(",") && !$0.name.contains(",") })
    }

    @Test("a bad line is named with what is accepted", arguments: [
        ("country,capital\nFrance\n", "countries.csv line 2: expected 'country,capital', both non-empty"),
        ("country,capital\nFrance,\n", "countries.csv line 2: expected 'country,capital', both non-empty"),
        ("country,capital\nA,X\nB,X\n", "countries.csv line 3: the capital 'X' appears twice; capitals identify rows"),
    ])
    func badLines(text: String, message: String) {
        #expect(throws: CountryDataError.self) { try Country.parse(csv: text) }
        do {
            _ = try Country.parse(csv: text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("COUNTRIES_DEMO_EXCLUDE's names (commas, blanks) delete those rows and no others")
    func excluding() {
        let left = Country.excluding(" France, United Kingdom ,Atlantis", from: Country.catalog)
        #expect(left.count == Country.catalog.count - 2)
        #expect(!left.contains { $0.name == "France" || $0.name == "United Kingdom" })
        #expect(Country.excluding("", from: Country.catalog) == Country.catalog)
    }

    @Test("the defaults round-trip; unknown keys are ignored, bad values refused")
    func defaults() throws {
        let saved = Defaults()
        saved.amazing = false
        let loaded = Defaults()
        try loaded.load(saved.bytes)
        #expect(loaded.amazing == false)
        try loaded.load(Array("later=7\namazing=1\n".utf8))
        #expect(loaded.amazing == true)
        #expect(throws: DefaultsError.self) { try loaded.load(Array("amazing=yes\n".utf8)) }
        #expect(throws: DefaultsError.self) { try loaded.load(Array("garbage\n".utf8)) }
    }
}
