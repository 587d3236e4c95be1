import JournalReview
import Testing

/// What a reviewer reads off the fleet report: the order of its rows and lists, and plots whose
/// marks sit where their values say.
@Suite("Journal timeline: the fleet report's order and plots")
struct FleetReportTests {
    static func totals(relaunchMS: [UInt64], kills: Int? = nil) -> TimelineTotals {
        var totals = TimelineTotals()
        totals.relaunchUSec = relaunchMS.map { $0 * 1000 }
        totals.kills = kills ?? relaunchMS.count
        totals.incidents = totals.kills
        return totals
    }

    @Test("With discards and unrelaunched kills equal, the slower relaunch p95 is the worse")
    func slowerP95IsWorse() {
        let (fast, slow) = (Self.totals(relaunchMS: [20, 21, 22]), Self.totals(relaunchMS: [20, 21, 60]))
        #expect(slow.isWorse(than: fast))
        #expect(!fast.isWorse(than: slow))
        #expect(TimelineTotals.worstFirst(["a-fast": fast, "b-slow": slow]).map(\.name) == ["b-slow", "a-fast"])
    }

    @Test("With discards equal, more kills with no relaunch seen is the worse, whatever the p95")
    func unrelaunchedKillsAreWorse() {
        let (relaunched, lost) = (Self.totals(relaunchMS: [20, 21]), Self.totals(relaunchMS: [20], kills: 2))
        let slow = Self.totals(relaunchMS: [90, 95])
        #expect(lost.isWorse(than: relaunched) && lost.isWorse(than: slow))
        #expect(!relaunched.isWorse(than: lost) && !slow.isWorse(than: lost))
    }

    @Test("More discards is the worse, whatever the kills and relaunches; equal rows go by name")
    func discardsComeFirstThenNames() {
        var discarded = Self.totals(relaunchMS: [20])
        discarded.discardsByReason = ["corrupt": 1]
        let lost = Self.totals(relaunchMS: [90], kills: 3)
        #expect(discarded.isWorse(than: lost))
        #expect(!lost.isWorse(than: discarded))
        let same = Self.totals(relaunchMS: [30])
        #expect(TimelineTotals.worstFirst(["c": same, "a": same, "b": same, "z": discarded]).map(\.name) == ["z", "a", "b", "c"])
    }

    @Test("The text tables: columns aligned under their heads, the widest name included, worst first")
    func textTablesAligned() {
        var summary = TimelineSummary()
        var worse = Self.totals(relaunchMS: [])
        (worse.incidents, worse.kills, worse.restores) = (3, 3, 1)
        worse.discardsByReason = ["force-quit": 1, "corrupt": 1]
        var better = Self.totals(relaunchMS: [])
        (better.incidents, better.kills, better.restores) = (12, 12, 12)
        summary.byMachine = ["m1": better, "m2": worse]
        summary.hostnameOfMachine = ["m1": "b", "m2": "fleet-0002"]
        summary.byApp = ["checkin-demo": worse]
        let text = TimelineRenderer.fleetTables(summary)
        #expect(text == """

            host         incidents  kills  restores  discards  relaunch median        p95
            fleet-0002           3      3         1         2                -          -  (corrupt 1, force-quit 1)
            b                   12     12        12         0                -          -

            app            incidents  kills  restores  discards  relaunch median        p95
            checkin-demo           3      3         1         2                -          -  (corrupt 1, force-quit 1)

            """)
    }

    @Test("The summary line lists discard reasons in name order")
    func summaryLineReasonsInNameOrder() {
        var summary = TimelineSummary()
        summary.all.discardsByReason = ["corrupt": 1, "build-mismatch": 2]
        summary.all.incidents = 3
        #expect(TimelineRenderer.summaryLine(summary).contains("3 discards (build-mismatch 2, corrupt 1)"))
    }

    @Test("Scene apps are listed in name order")
    func sceneAppsInNameOrder() throws {
        var summary = TimelineSummary()
        for app in ["notes-b", "notes-a"] {
            var totals = TimelineTotals()
            totals.scenesByOutcome = ["restored": 1]
            summary.byApp[app] = totals
        }
        let page = FleetReport.html(summary, source: "test")
        let html = page[try #require(page.firstRange(of: "<h2>Scene sessions")).upperBound...]
        let (a, b) = (try #require(html.firstRange(of: "<td>notes-a</td>")), try #require(html.firstRange(of: "<td>notes-b</td>")))
        #expect(a.lowerBound < b.lowerBound)
    }

    @Test("A scene app's discard reasons are listed in name order")
    func sceneDiscardReasonsInNameOrder() {
        var summary = TimelineSummary()
        var notes = TimelineTotals()
        notes.scenesByOutcome = ["restored": 1, "discarded": 3]
        notes.sceneDiscardsByReason = ["corrupt": 1, "build-mismatch": 2, "expired": 0]
        summary.byApp["notes-demo"] = notes
        let html = FleetReport.html(summary, source: "test")
        #expect(html.contains("<td class=\"l\">build-mismatch 2, corrupt 1, expired 0</td>"))
    }

    /// One app relaunched on eight hosts whose medians run from 20 to 40 ms.
    static func eightHosts() -> TimelineSummary {
        var summary = TimelineSummary()
        var all: [UInt64] = []
        for host in 0..<8 {
            let values = [UInt64(20 + host * 20 / 7) * 1000]
            summary.relaunchUSecByMachineApp[String(repeating: "\(host)", count: 32), default: [:]]["checkin-demo"] = values
            all += values
        }
        summary.byApp["checkin-demo"] = Self.totals(relaunchMS: all.map { $0 / 1000 })
        summary.byApp["banca-demo"] = Self.totals(relaunchMS: [30, 31])
        summary.relaunchUSecByMachineApp["f" + String(repeating: "0", count: 31), default: [:]]["banca-demo"] = [30_000, 31_000]
        return summary
    }

    @Test("Each host's dot lies inside its app's row, left to right by its median")
    func dotsInsideTheirRow() throws {
        let svg = try #require(SVG(FleetReport.html(Self.eightHosts(), source: "test"), label: "relaunch times per app"))
        var band: SVG.Element?
        var dotsOfRow: [[Double]] = []
        for element in svg.elements {
            if element.name == "rect" {
                band = element
                dotsOfRow.append([])
            } else if element.name == "circle" {
                let row = try #require(band, "a dot before any row")
                let (x, y) = (element["cx"], element["cy"])
                #expect(x >= row["x"] && x <= row["x"] + row["width"], "dot at x \(x) outside its row")
                #expect(y >= row["y"] && y <= row["y"] + row["height"], "dot at y \(y) outside its row \(row["y"])...")
                dotsOfRow[dotsOfRow.count - 1].append(x)
            } else if element.name == "line", element.attributes["stroke"] == "#1d2433", let row = band {
                #expect(element["x1"] >= row["x"] && element["x1"] <= row["x"] + row["width"], "a median or p95 mark outside its row")
            }
        }
        #expect(dotsOfRow.map(\.count).sorted() == [1, 8])
        // The axis spans the values shown, 20 to 40 ms: each dot is as far along its row as its median;
        // the dots are drawn in machine order (so a page is the same on every run), here also the
        // medians' order.
        let row = try #require(svg.elements.first { $0.name == "rect" })
        let medians = (0..<8).map { Double(20 + $0 * 20 / 7) }
        let expected = medians.map { row["x"] + row["width"] * ($0 - 20) / 20 }
        for dots in dotsOfRow where dots.count == 8 {
            #expect(zip(dots, expected).allSatisfy { abs($0 - $1) <= 0.1 }, "dots at \(dots), expected \(expected)")
        }
        #expect(svg.elements.allSatisfy { $0.name != "circle" || $0["cx"] <= svg.width })
        // The rows run down the plot, one under the other, inside it.
        let rows = svg.elements.filter { $0.name == "rect" }
        #expect(rows.count == 2 && rows[1]["y"] >= rows[0]["y"] + rows[0]["height"])
        #expect(rows.allSatisfy { $0["y"] >= 0 && $0["y"] + $0["height"] <= svg.height })
        // The grid lines run down past the last row, to the axis labels.
        let lastRow = try #require(svg.elements.last { $0.name == "rect" })
        let grid = svg.elements.filter { $0.name == "line" && $0.attributes["stroke"] == "#e6e9ef" }
        #expect(!grid.isEmpty && grid.allSatisfy { $0["y2"] >= lastRow["y"] + lastRow["height"] })
        // The axis is labelled from the lowest value shown to the highest, both ends included.
        let labels = svg.elements.filter { $0.name == "text" && $0.attributes["text-anchor"] == "middle" }
        #expect(labels.map(\.text) == ["20 ms", "25 ms", "30 ms", "35 ms", "40 ms"])
    }

    @Test("Discard bars: each host's bar is as long as its discards, the longest filling the plot")
    func discardBarsScale() throws {
        var summary = TimelineSummary()
        for (host, counts) in [("h1", ["corrupt": 4, "build-mismatch": 2]), ("h2", ["corrupt": 1]), ("h3", [:])] {
            var totals = TimelineTotals()
            totals.discardsByReason = counts
            summary.byMachine[host] = totals
            summary.hostnameOfMachine[host] = host
        }
        let svg = try #require(SVG(FleetReport.html(summary, source: "test"), label: "discards by reason per host"))
        let bars = svg.elements.filter { $0.name == "rect" && $0["height"] == 14 }
        #expect(bars.count == 3)
        let lengthOfRow = Dictionary(grouping: bars, by: { $0["y"] }).mapValues { $0.reduce(0) { $0 + $1["width"] } }
        let lengths = lengthOfRow.sorted { $0.key < $1.key }.map(\.value)
        #expect(lengths.count == 2, "a row for each host that discarded anything, none for h3")
        #expect(!svg.elements.contains { $0.name == "text" && $0.text == "h3" })
        // Rows one under the other, never overlapping; legend swatches left to right, clear of the
        // label before them.
        let tops = Set(bars.map { $0["y"] }).sorted()
        #expect(zip(tops, tops.dropFirst()).allSatisfy { $1 - $0 >= 14 }, "rows at \(tops)")
        // A host's reasons are stacked: each segment starts where the one before it ends.
        let firstRow = bars.filter { $0["y"] == tops[0] }
        #expect(firstRow.count == 2 && abs(firstRow[1]["x"] - (firstRow[0]["x"] + firstRow[0]["width"])) <= 0.1)
        let swatches = svg.elements.filter { $0.name == "rect" && $0["height"] == 12 }.map { $0["x"] }
        #expect(swatches.count == 2 && swatches[1] - swatches[0] >= 16 + 6.5 * Double("build-mismatch".count))
        // The host table lists each host's reasons in name order.
        #expect(FleetReport.html(summary, source: "test").contains("<td class=\"l\">build-mismatch 2, corrupt 4</td>"))
        #expect(abs(lengths[0] / lengths[1] - 6) < 0.01, "bars \(lengths) for 6 and 1 discards")
        #expect(bars.allSatisfy { $0["x"] + $0["width"] <= svg.width && $0["y"] + $0["height"] <= svg.height })
        #expect(!FleetReport.html(summary, source: "test").contains("more hosts with"))
    }

    @Test("Past the plot's rows, the hosts left out are counted with their discards")
    func hostsPastTheRowsAreCounted() throws {
        var summary = TimelineSummary()
        for index in 0...FleetReport.hostRows + 1 {
            var totals = TimelineTotals()
            totals.discardsByReason = ["corrupt": index < FleetReport.hostRows ? 3 : 1]
            summary.byMachine["host-\(index)"] = totals
        }
        let html = FleetReport.html(summary, source: "test")
        #expect(html.contains("<p class=\"note\">and 2 more hosts with 2 discards.</p>"))
        #expect(html.contains("<p class=\"note\">and 2 more hosts (the JSON has them all"))
        var fewer = summary
        fewer.byMachine["host-0"] = nil
        fewer.byMachine["host-1"] = nil
        #expect(!FleetReport.html(fewer, source: "test").contains("more hosts"))
        let svg = try #require(SVG(html, label: "discards by reason per host"))
        #expect(svg.elements.filter { $0.name == "rect" && $0["height"] == 14 }.count == FleetReport.hostRows)
    }
}

/// The marks of one inline SVG of a page, each with its attributes.
struct SVG {
    struct Element {
        let name: String
        let attributes: [String: String]
        /// The text up to the next tag (a `text` element's label).
        var text = ""
        /// A numeric attribute (NaN when missing, so that every comparison with it fails).
        subscript(_ key: String) -> Double { attributes[key].flatMap(Double.init) ?? .nan }
    }

    let width: Double
    let height: Double
    let elements: [Element]

    /// The SVG of `page` whose aria-label is `label`.
    init?(_ page: String, label: String) {
        guard let start = page.firstRange(of: "aria-label=\"\(label)\">") else { return nil }
        guard let end = page[start.upperBound...].firstRange(of: "</svg>") else { return nil }
        guard let open = page[..<start.lowerBound].ranges(of: "<svg").last else { return nil }
        let head = Self.attributes(of: String(page[open.upperBound..<start.lowerBound]))
        width = head["width"].flatMap(Double.init) ?? .nan
        height = head["height"].flatMap(Double.init) ?? .nan
        var elements: [Element] = []
        for piece in page[start.upperBound..<end.lowerBound].split(separator: "<") {
            let tag = piece.prefix { $0 != " " && $0 != ">" && $0 != "/" }
            guard ["rect", "circle", "line", "text"].contains(String(tag)) else { continue }
            let body = piece.dropFirst(tag.count).prefix { $0 != ">" }
            var element = Element(name: String(tag), attributes: Self.attributes(of: String(body)))
            element.text = String(piece.drop { $0 != ">" }.dropFirst())
            elements.append(element)
        }
        self.elements = elements
    }

    static func attributes(of text: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(text)
        while let equals = rest.firstIndex(of: "="), rest[rest.index(after: equals)...].first == "\"" {
            let key = rest[..<equals].split(separator: " ").last.map(String.init) ?? ""
            let valueStart = rest.index(equals, offsetBy: 2)
            guard let close = rest[valueStart...].firstIndex(of: "\"") else { break }
            result[key] = String(rest[valueStart..<close])
            rest = rest[rest.index(after: close)...]
        }
        return result
    }
}
