package import RelaunchApp
internal import FoundationEssentials
internal import RelaunchContract
internal import RestorationKit

/// Banca's state as `relaunchctl app state --json` shows it: CONTRACT.md's common keys and its own.
///
/// Absent values encode as JSON `null`, never as missing keys.
package struct BancaState: Equatable, Sendable, Encodable {
    /// The currency list, while it is presented.
    package struct CurrencyList: Equatable, Sendable, Encodable {
        /// `from` or `to`: the currency it picks.
        package var side: String
        /// The selected currency's code, or nil.
        package var selected: String?
        /// The code of the first currency in view (the scroll position by model identifier).
        package var firstVisible: String?
        /// The scroll offset in points.
        package var scrollOffset: Double
    }

    /// The keys every app has: launch, lifecycle, paths, presented, restoredVia, lastExit, permissions.
    package var common: CommonAppState
    /// The running build.
    package var buildNumber: String
    /// The amount as typed.
    package var amount: String
    /// The two currencies' codes, `from` and `to`.
    package var currencies: [String: String]
    /// The amount converted, two decimals.
    package var converted: String
    /// The currency list, or nil when it is not presented.
    package var currencyList: CurrencyList?
    /// What the camera screen shows (`scanning`, `denied`), or nil when it is not pushed.
    package var scan: String?

    /// Equal when they encode to the same JSON.
    package static func == (lhs: BancaState, rhs: BancaState) -> Bool { lhs.json == rhs.json }

    /// The state as one line of JSON with sorted keys.
    package var json: String { CommonAppState.json(self) }

    /// Encodes the common keys, then Banca's; absent values as `null` (an optional's `encode`, not `encodeIfPresent`).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StateKey.self)
        try common.encode(into: &container)
        try container.encode(buildNumber, forKey: "buildNumber")
        try container.encode(amount, forKey: "amount")
        try container.encode(currencies, forKey: "currencies")
        try container.encode(converted, forKey: "converted")
        try container.encode(currencyList, forKey: "currencyList")
        try container.encode(scan, forKey: "scan")
    }
}

extension BancaApp {
    /// The state, as a value.
    package func state() -> BancaState {
        let amount = converter?.amount ?? Amount("")!
        return BancaState(
            common: CommonAppState(session: session, lastExit: lastExit, permissions: [.camera: camera]),
            buildNumber: buildNumber,
            amount: amount.text,
            currencies: ["from": pair.from, "to": pair.to],
            converted: amount.converted(from: currency(.from), to: currency(.to)),
            currencyList: currencyList.map {
                .init(
                    side: $0.side.rawValue, selected: $0.selectedCurrency?.id, firstVisible: $0.firstVisibleCurrency?.id,
                    scrollOffset: $0.tableView.contentOffset.y)
            },
            scan: scanStep?.rawValue)
    }

    /// The state as JSON with CONTRACT.md's keys (sorted; absent values null).
    package func stateJSON() -> String { state().json }
}
