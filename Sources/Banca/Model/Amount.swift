/// The amount typed into the converter, kept as typed (restoration brings back the text, not a
/// number), and what it converts to.
package struct Amount: Sendable, Equatable {
    /// The most digits before the decimal point.
    package static let maximumWholeDigits = 9
    /// The most digits after it.
    package static let maximumDecimals = 2

    /// The text as typed: empty, or digits with at most one `.` and two decimals.
    package let text: String

    /// The amount `text`, or nil when it is not a plain decimal number of the accepted size.
    package init?(_ text: String) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let decimals = parts.count == 2 ? parts[1] : ""
        let digits: (Substring) -> Bool = { $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard digits(whole), digits(decimals), whole.count <= Self.maximumWholeDigits,
            decimals.count <= Self.maximumDecimals, text.isEmpty || !whole.isEmpty || !decimals.isEmpty
        else { return nil }
        self.text = text
    }

    /// Its value in hundredths (`12.5` is 1250); zero when empty.
    package var hundredths: Int64 {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = Int64(parts[0]) ?? 0
        let decimals = parts.count == 2 ? String(parts[1]) : ""
        let padded = (decimals + "00").prefix(2)
        return whole * 100 + (Int64(padded) ?? 0)
    }

    /// The amount converted from `from` to `to`, with two decimals (`"13.52"`).
    package func converted(from: Currency, to: Currency) -> String {
        Self.format(hundredths: (Double(hundredths) * to.perEuro / from.perEuro).rounded())
    }

    /// What one unit of `from` buys in `to`, with four decimals (`"1.0900"`).
    package static func rate(from: Currency, to: Currency) -> String {
        let tenThousandths = Int64((to.perEuro / from.perEuro * 10_000).rounded())
        let fraction = String(tenThousandths % 10_000)
        return "\(tenThousandths / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }

    /// `value` hundredths as a number with two decimals.
    static func format(hundredths value: Double) -> String {
        let whole = Int64(value)
        let fraction = String(whole % 100)
        return "\(whole / 100)." + (fraction.count == 1 ? "0" : "") + fraction
    }
}
