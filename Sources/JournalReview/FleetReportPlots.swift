import RelaunchContract

#if canImport(Glibc)
import Glibc
#endif

/// The inline SVG plots of ``FleetReport``.
enum FleetReportPlots {
    static let palette = ["#3b6fd4", "#e0792f", "#2f9e6e", "#c2417a", "#8a63d2", "#b59a1b", "#4aa3b8", "#7a7f8c"]
    private static let width = 1000.0

    /// One row per app: each host's median relaunch as a dot, the app's median and p95 over all relaunches.
    static func relaunchPlot(_ summary: TimelineSummary) -> String {
        let apps = TimelineTotals.worstFirst(summary.byApp).filter { !$0.totals.relaunchUSec.isEmpty }
        guard !apps.isEmpty else { return "<p class=\"note\">No relaunch was seen.</p>\n" }
        var medians: [String: [(machine: String, usec: UInt64)]] = [:]
        // In machine order, so that the same journal gives the same page byte for byte.
        for (machine, byApp) in summary.relaunchUSecByMachineApp.sorted(by: { $0.key < $1.key }) {
            for (app, values) in byApp {
                if let median = percentile(0.5, of: values) { medians[app, default: []].append((machine, median)) }
            }
        }
        var shown: [UInt64] = []
        for (app, totals) in apps {
            shown += [totals.relaunchP95USec ?? 0, totals.relaunchMedianUSec ?? 0] + (medians[app] ?? []).map(\.usec)
        }
        // The axis spans the values shown (not from 0), so that hosts a few ms apart stay apart.
        let (low, high) = (Double(shown.min() ?? 0) / 1000, Double(shown.max() ?? 1) / 1000)
        let (step, _) = ticks(maximum: max(high - low, 0.01))
        let start = (low / step).rounded(.down) * step
        let limit = max((high / step).rounded(.up) * step, start + step)
        let (left, right, row, axis) = (170.0, 20.0, 58.0, 34.0)
        let height = Double(apps.count) * row + axis + 8
        let x = { (ms: Double) in left + (width - left - right) * (ms - start) / (limit - start) }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"relaunch times per app\">\n"
        var tick = start
        while tick <= limit + step / 2 {
            let at = format(x(tick))
            svg += "<line x1=\"\(at)\" y1=\"4\" x2=\"\(at)\" y2=\"\(format(height - axis))\" stroke=\"#e6e9ef\"/>"
            svg += "<text x=\"\(at)\" y=\"\(format(height - axis + 16))\" text-anchor=\"middle\">\(format(tick)) ms</text>\n"
            tick += step
        }
        for (index, (app, totals)) in apps.enumerated() {
            let top = 4 + Double(index) * row
            let middle = top + row / 2
            let color = palette[index % palette.count]
            let hosts = medians[app] ?? []
            svg += "<text x=\"0\" y=\"\(format(middle - 4))\" font-weight=\"600\">\(FleetReport.escape(app))</text>"
            svg += "<text x=\"0\" y=\"\(format(middle + 11))\" fill=\"#5b6475\">\(hosts.count) \(hosts.count == 1 ? "host" : "hosts"), \(totals.relaunchUSec.count) relaunches</text>\n"
            svg += "<rect x=\"\(format(left))\" y=\"\(format(top + 3))\" width=\"\(format(width - left - right))\" height=\"\(format(row - 6))\" fill=\"\(index % 2 == 0 ? "#f7f9fc" : "#ffffff")\"/>\n"
            for (machine, usec) in hosts {
                // Spread over the row's middle, clear of the labels at its top and bottom.
                let jitter = Double(hash(machine) % 1000) / 1000 * (row - 34) - (row - 34) / 2
                svg += "<circle cx=\"\(format(x(Double(usec) / 1000)))\" cy=\"\(format(middle + jitter))\" r=\"3\" fill=\"\(color)\" fill-opacity=\"0.55\"/>"
            }
            if let median = totals.relaunchMedianUSec, let p95 = totals.relaunchP95USec {
                let (m, p) = (format(x(Double(median) / 1000)), format(x(Double(p95) / 1000)))
                svg += "\n<line x1=\"\(m)\" y1=\"\(format(top + 5))\" x2=\"\(m)\" y2=\"\(format(top + row - 5))\" stroke=\"#1d2433\" stroke-width=\"2.5\"/>"
                svg += "<line x1=\"\(p)\" y1=\"\(format(top + 5))\" x2=\"\(p)\" y2=\"\(format(top + row - 5))\" stroke=\"#1d2433\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>"
                svg += "<text x=\"\(m)\" y=\"\(format(top + 14))\" dx=\"-4\" text-anchor=\"end\">median \(TimelineRenderer.milliseconds(median))</text>"
                svg += "<text x=\"\(p)\" y=\"\(format(top + row - 8))\" dx=\"4\">p95 \(TimelineRenderer.milliseconds(p95))</text>\n"
            }
        }
        return svg + "</svg>\n"
    }

    /// Stacked bars of discards by reason for the `rows` worst hosts that discarded anything.
    static func discardPlot(_ summary: TimelineSummary, rows: Int) -> String {
        let hosts = TimelineTotals.worstFirst(summary.byHost).filter { $0.totals.discards > 0 }
        guard !hosts.isEmpty else { return "<p class=\"note\">No saved state was discarded.</p>\n" }
        let reasons = Set(hosts.flatMap { $0.totals.discardsByReason.keys }).sorted()
        let shown = hosts.prefix(rows)
        let most = Double(shown.map(\.totals.discards).max() ?? 1)
        let (left, right, bar, gap, legend) = (200.0, 60.0, 14.0, 5.0, 26.0)
        let height = legend + Double(shown.count) * (bar + gap) + 4
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"discards by reason per host\">\n"
        var legendX = left
        for (index, reason) in reasons.enumerated() {
            svg += "<rect x=\"\(format(legendX))\" y=\"4\" width=\"12\" height=\"12\" fill=\"\(palette[index % palette.count])\"/>"
            svg += "<text x=\"\(format(legendX + 16))\" y=\"14\">\(FleetReport.escape(reason))</text>"
            legendX += 28 + Double(reason.count) * 6.5
        }
        svg += "\n"
        let scale = (width - left - right) / most
        for (index, (name, totals)) in shown.enumerated() {
            let y = legend + Double(index) * (bar + gap)
            svg += "<text x=\"\(format(left - 8))\" y=\"\(format(y + bar - 3))\" text-anchor=\"end\">\(FleetReport.escape(name))</text>"
            var x = left
            for (reasonIndex, reason) in reasons.enumerated() {
                guard let count = totals.discardsByReason[reason] else { continue }
                let w = Double(count) * scale
                svg += "<rect x=\"\(format(x))\" y=\"\(format(y))\" width=\"\(format(w))\" height=\"\(format(bar))\" "
                    + "fill=\"\(palette[reasonIndex % palette.count])\"><title>\(FleetReport.escape(name)): \(FleetReport.escape(reason)) \(count)</title></rect>"
                x += w
            }
            svg += "<text x=\"\(format(x + 5))\" y=\"\(format(y + bar - 3))\">\(totals.discards)</text>\n"
        }
        svg += "</svg>\n"
        if hosts.count > rows {
            let rest = hosts.dropFirst(rows).reduce(0) { $0 + $1.totals.discards }
            svg += "<p class=\"note\">and \(hosts.count - rows) more hosts with \(rest) discards.</p>\n"
        }
        return svg
    }

    /// A tick step of 1, 2 or 5 × 10ⁿ giving at most about eight ticks, and the axis end (a whole step).
    static func ticks(maximum: Double) -> (step: Double, limit: Double) {
        let target = max(maximum, 0.001) / 6
        let magnitude = pow(10, log10(target).rounded(.down))  // the largest power of ten ≤ target
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= target } ?? magnitude * 10
        return (step, (maximum / step).rounded(.up) * step)
    }

    /// A coordinate with at most one decimal.
    static func format(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }

    /// FNV-1a, to place a host's dot the same way on every run.
    private static func hash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
