/// `relaunchctl journal --report FILE.html`: one self-contained HTML page (no script, nothing fetched)
/// with the fleet's summary, a plot of exit → READY per app across hosts and the discards by reason
/// per host, both as inline SVG, and the per-host and per-app tables, worst first.
package enum FleetReport {
    /// How many hosts the discard chart and the host table show before "and N more".
    package static let hostRows = 40

    /// The page for `summary`; `source` says what was read (e.g. "the journal files in /var/log/journal/remote").
    package static func html(_ summary: TimelineSummary, source: String) -> String {
        let hosts = summary.hostCount
        var page = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Relaunch fleet review</title>
        <style>\(style)</style></head><body>
        <h1>Relaunch fleet review</h1>
        <p class="sub">\(escape(source)) · \(hosts) \(hosts == 1 ? "host" : "hosts")</p>

        """
        page += cards(summary)
        page += "<h2>Exit → READY per app across hosts</h2>\n"
        page += "<p class=\"note\">Each dot is one host's median relaunch of the app (systemd saw the process exit → the new instance's READY=1); the solid line marks the app's median over every relaunch, the dashed line its p95.</p>\n"
        page += FleetReportPlots.relaunchPlot(summary)
        page += "<h2>Discarded saved state by reason, per host</h2>\n"
        page += FleetReportPlots.discardPlot(summary, rows: hostRows)
        page += "<h2>Hosts, worst first</h2>\n"
        page += table("host", summary.byHost, limit: hostRows)
        page += "<h2>Apps, worst first</h2>\n"
        page += table("app", summary.byApp, limit: .max)
        page += scenesTable(summary)
        if let ignored = TimelineRenderer.ignoredLine(summary) {
            page += "<p class=\"note\">\(escape(ignored)) (left out: journald's trusted fields show they are not from where their kind says).</p>\n"
        }
        page += "<p class=\"note\">Worst first: more discards, then kills with no relaunch seen, then a slower relaunch p95, then more incidents.</p>\n"
        return page + "</body></html>\n"
    }

    private static func cards(_ summary: TimelineSummary) -> String {
        let discards = summary.discardsByReason.values.reduce(0, +)
        let items: [(String, String)] = [
            ("hosts", "\(summary.hostCount)"), ("incidents", "\(summary.incidents)"), ("kills", "\(summary.kills)"),
            ("restores", "\(summary.restores)"), ("discards", "\(discards)"),
            ("relaunch median", summary.relaunchMedianUSec.map(TimelineRenderer.milliseconds) ?? "–"),
            ("relaunch p95", summary.relaunchP95USec.map(TimelineRenderer.milliseconds) ?? "–"),
        ]
        return "<div class=\"cards\">" + items.map {
            "<div class=\"card\"><div class=\"v\">\(escape($0.1))</div><div class=\"k\">\($0.0)</div></div>"
        }.joined() + "</div>\n"
    }

    /// The scene sessions the relaunched scene-based apps logged, per app: how many came back restored,
    /// discarded (by their own REASON) or fresh; nothing when no relaunch logged any.
    private static func scenesTable(_ summary: TimelineSummary) -> String {
        let apps = summary.byApp.filter { !$0.value.scenesByOutcome.isEmpty }.sorted { $0.key < $1.key }
        guard !apps.isEmpty else { return "" }
        var out = "<h2>Scene sessions at relaunch, per app</h2>\n"
        out += "<table><tr><th>app</th><th>restored</th><th>discarded</th><th>fresh</th><th class=\"l\">discarded by reason</th></tr>\n"
        for (app, totals) in apps {
            let reasons = totals.sceneDiscardsByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            out += "<tr><td>\(escape(app))</td>"
            for outcome in ["restored", "discarded", "fresh"] { out += "<td>\(totals.scenesByOutcome[outcome] ?? 0)</td>" }
            out += "<td class=\"l\">\(escape(reasons.joined(separator: ", ")))</td></tr>\n"
        }
        return out + "</table>\n<p class=\"note\">One row per scene-based app: each window of each relaunch, by how its saved state came back (a damaged window's record is discarded alone).</p>\n"
    }

    private static func table(_ kind: String, _ groups: [String: TimelineTotals], limit: Int) -> String {
        let rows = TimelineTotals.worstFirst(groups)
        var out = "<table><tr><th>\(kind)</th><th>incidents</th><th>kills</th><th>restores</th><th>discards</th>"
            + "<th class=\"l\">by reason</th><th>relaunch median</th><th>p95</th></tr>\n"
        for (name, totals) in rows.prefix(limit) {
            let reasons = totals.discardsByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            out += "<tr><td>\(escape(name))</td><td>\(totals.incidents)</td><td>\(totals.kills)</td>"
            out += "<td>\(totals.restores)</td><td>\(totals.discards)</td><td class=\"l\">\(escape(reasons.joined(separator: ", ")))</td>"
            out += "<td>\(totals.relaunchMedianUSec.map(TimelineRenderer.milliseconds) ?? "–")</td>"
            out += "<td>\(totals.relaunchP95USec.map(TimelineRenderer.milliseconds) ?? "–")</td></tr>\n"
        }
        out += "</table>\n"
        if rows.count > limit {
            out += "<p class=\"note\">and \(rows.count - limit) more \(kind)s (the JSON has them all: <code>relaunchctl journal --json</code>).</p>\n"
        }
        return out
    }

    /// `text` with `& < > "` as character references.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    private static let style = """
    body{font:14px/1.4 system-ui,sans-serif;margin:24px 32px;color:#1d2433;background:#fff;max-width:1100px}\
    h1{font-size:22px;margin:0}h2{font-size:16px;margin:28px 0 6px}.sub,.note{color:#5b6475}.note{font-size:12px}\
    .cards{display:flex;flex-wrap:wrap;gap:10px;margin-top:14px}.card{border:1px solid #d8dde6;border-radius:6px;\
    padding:8px 14px;min-width:92px}.card .v{font-size:20px;font-weight:600}.card .k{color:#5b6475;font-size:12px}\
    table{border-collapse:collapse;font-size:12px}td,th{padding:3px 10px;border-bottom:1px solid #e6e9ef;\
    text-align:right;white-space:nowrap}th{background:#f3f5f8}td:first-child,th:first-child,.l{text-align:left}\
    td.l{white-space:normal}\
    svg text{font:11px system-ui,sans-serif;fill:#1d2433}
    """
}
