/// A currency the converter knows: its ISO 4217 code (the model identifier the list saves), its name
/// and a fixed demo rate.
package struct Currency: Sendable, Equatable, Identifiable {
    /// The ISO 4217 code, e.g. `EUR`; used in `tap currency:CODE` and saved by the list's model association.
    package var id: String
    /// The name shown in the list.
    package var name: String
    /// How many units of it one euro buys (the demo's fixed rates, not live ones).
    package var perEuro: Double

    /// A currency with the given code, name and rate.
    package init(id: String, name: String, perEuro: Double) {
        self.id = id
        self.name = name
        self.perEuro = perEuro
    }

    /// The day the demo's rates are from (shown in About).
    package static let ratesDate = "2024-06-03"

    /// The currencies the demo ships with, by code.
    package static let catalog: [Currency] = [
        Currency(id: "AUD", name: "Australian Dollar", perEuro: 1.63),
        Currency(id: "BRL", name: "Brazilian Real", perEuro: 5.64),
        Currency(id: "CAD", name: "Canadian Dollar", perEuro: 1.48),
        Currency(id: "CHF", name: "Swiss Franc", perEuro: 0.97),
        Currency(id: "CNY", name: "Chinese Yuan", perEuro: 7.86),
        Currency(id: "CZK", name: "Czech Koruna", perEuro: 24.71),
        Currency(id: "DKK", name: "Danish Krone", perEuro: 7.46),
        Currency(id: "EUR", name: "Euro", perEuro: 1),
        Currency(id: "GBP", name: "British Pound", perEuro: 0.85),
        Currency(id: "HKD", name: "Hong Kong Dollar", perEuro: 8.49),
        Currency(id: "HUF", name: "Hungarian Forint", perEuro: 388.6),
        Currency(id: "INR", name: "Indian Rupee", perEuro: 90.41),
        Currency(id: "JPY", name: "Japanese Yen", perEuro: 169.9),
        Currency(id: "KRW", name: "South Korean Won", perEuro: 1494.5),
        Currency(id: "MXN", name: "Mexican Peso", perEuro: 18.86),
        Currency(id: "NOK", name: "Norwegian Krone", perEuro: 11.38),
        Currency(id: "NZD", name: "New Zealand Dollar", perEuro: 1.76),
        Currency(id: "PLN", name: "Polish Zloty", perEuro: 4.29),
        Currency(id: "RSD", name: "Serbian Dinar", perEuro: 117.08),
        Currency(id: "SEK", name: "Swedish Krona", perEuro: 11.36),
        Currency(id: "SGD", name: "Singapore Dollar", perEuro: 1.47),
        Currency(id: "TRY", name: "Turkish Lira", perEuro: 35.08),
        Currency(id: "USD", name: "US Dollar", perEuro: 1.09),
        Currency(id: "ZAR", name: "South African Rand", perEuro: 20.36),
    ]
}
