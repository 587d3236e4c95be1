import RelaunchContract

extension TimelineRenderer {
    /// The per-host and per-app tables of a review of more than one host, worst first
    /// (``TimelineTotals/isWorse(than:)``), each ending in a blank line; empty for one host.
    package static func fleetTables(_ summary: TimelineSummary) -> String {
        guard summary.hostCount > 1 else { return "" }
        return "\n" + table("host", summary.byHost) + "\n" + table("app", summary.byApp)
    }

    /// One table: a header line, then one line per group.
    ///
    /// ```
    /// host         incidents  kills  restores  discards  relaunch median        p95
    /// fleet-0002           3      3         1         2         412.3 ms   980.0 ms  (corrupt 1, force-quit 1)
    /// ```
    static func table(_ kind: String, _ groups: [String: TimelineTotals]) -> String {
        // Names (a host's, an app's) and discard reasons come from the journal: escaped before padding.
        let rows = TimelineTotals.worstFirst(groups).map { (name: TerminalText.escaped($0.name), totals: $0.totals) }
        let width = max(kind.count, rows.map(\.name.count).max() ?? 0) + 2
        var out = pad(kind, width) + right("incidents", 10) + right("kills", 7) + right("restores", 10)
            + right("discards", 10) + right("relaunch median", 17) + right("p95", 11) + "\n"
        for (name, totals) in rows {
            out += pad(name, width) + right("\(totals.incidents)", 10) + right("\(totals.kills)", 7)
            out += right("\(totals.restores)", 10) + right("\(totals.discards)", 10)
            out += right(totals.relaunchMedianUSec.map(milliseconds) ?? "-", 17)
            out += right(totals.relaunchP95USec.map(milliseconds) ?? "-", 11)
            if totals.discards > 0 {
                let reasons = totals.discardsByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                out += TerminalText.escaped("  (" + reasons.joined(separator: ", ") + ")")
            }
            out += "\n"
        }
        return out
    }

    private static func right(_ s: String, _ width: Int) -> String {
        s.count >= width ? " " + s : String(repeating: " ", count: width - s.count) + s
    }
}
