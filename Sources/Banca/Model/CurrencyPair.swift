/// The two currencies the converter converts between: the app's data model (its settings), saved
/// apart from the restoration archive (`AppEffect.saveData`), so a force quit keeps them.
package struct CurrencyPair: Sendable, Equatable {
    /// Which of the two.
    package enum Side: String, Sendable, CaseIterable {
        /// The currency the amount is in.
        case from
        /// The currency it is converted to.
        case to
    }

    /// The code of the currency the amount is in.
    package var from: String
    /// The code of the currency it is converted to.
    package var to: String

    /// A pair of currency codes.
    package init(from: String, to: String) {
        self.from = from
        self.to = to
    }

    /// What a fresh install converts: euros to US dollars.
    package static let initial = CurrencyPair(from: "EUR", to: "USD")

    /// The code on `side`.
    package subscript(side: Side) -> String {
        get { side == .from ? from : to }
        set { if side == .from { from = newValue } else { to = newValue } }
    }

    /// The pair as saved: `from=EUR\nto=USD\n`.
    package var bytes: [UInt8] { Array("from=\(from)\nto=\(to)\n".utf8) }

    /// The pair saved as `bytes`, both codes in `catalog`.
    ///
    /// - Throws: `DataError` naming what could not be read.
    package init(bytes: [UInt8], catalog: [Currency]) throws(DataError) {
        var values: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { throw DataError(detail: "a line without '='") }
            values[String(parts[0])] = String(parts[1])
        }
        for side in Side.allCases {
            guard let code = values[side.rawValue], catalog.contains(where: { $0.id == code }) else {
                throw DataError(detail: "no known currency for '\(side.rawValue)'")
            }
        }
        self.init(from: values["from"] ?? "", to: values["to"] ?? "")
    }

    /// Saved currencies that cannot be read.
    package struct DataError: Error, CustomStringConvertible {
        /// What was wrong.
        package var detail: String
        /// One line.
        package var description: String { "the saved currencies cannot be read: \(detail); using EUR and USD" }
    }
}
