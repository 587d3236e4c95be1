// restoration-table: issue 13's goals in one run. For every shape and size it times RestorationKit's
// preserve (walk + encode) and restore (decode + rebuild in a fresh application) against Foundation's
// binary PropertyListEncoder/Decoder and JSONEncoder/Decoder on the same records, in alternating
// runs, and prints medians in µs per controller, the ratios, bytes per controller, and whether every
// goal is met (exit 1 if not).
//
// Usage: restoration-table [--sizes 10,100,1000,10000,100000] [--shapes tab-bar,...] [--data FILE]
//   --data FILE  also write the medians as tab-separated columns (Benchmarks/plot reads them)
//   --loop OPERATION  only time preserve, restore or a half of one (walk, encode, decode, launch) on
//                     the first shape and size, for perf
//   --iterations N    how many times --loop times it (default: 1M controllers' worth, at least 200)
import BenchmarkTrees
import Foundation
import RestorationKit

var sizes = [10, 100, 1_000, 10_000, 100_000]
var shapes = Shape.allCases
var dataPath: String?
var loop: String?
var iterations: Int?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--sizes": sizes = (arguments.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
    case "--shapes": shapes = (arguments.popFirst() ?? "").split(separator: ",").compactMap { Shape(rawValue: String($0)) }
    case "--data": dataPath = arguments.popFirst()
    case "--loop": loop = arguments.popFirst()
    case "--iterations": iterations = arguments.popFirst().flatMap { Int($0) }
    case "--help", "-h":
        print("usage: restoration-table [--sizes 10,100,...] [--shapes \(Shape.allCases.map(\.rawValue).joined(separator: ","))] [--data FILE]")
        exit(0)
    default:
        FileHandle.standardError.write(Data("restoration-table: unknown argument '\(argument)'; see --help\n".utf8))
        exit(2)
    }
}

let clock = ContinuousClock()


/// Nanoseconds `body` took; what it returns is released after the clock stops.
@inline(never)
func time<Result>(_ body: () -> Result) -> (Double, Result) {
    let start = clock.now
    let result = body()
    let elapsed = clock.now - start
    return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9, result)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

if let loop, let shape = shapes.first, let count = sizes.first {
    let workload = Workload(shape: shape, count: count)
    let archive = workload.walk()
    var samples: [Double] = []
    for _ in 0..<(iterations ?? max(200, 1_000_000 / count)) {
        switch loop {
        case "preserve": samples.append(time { workload.preserve() }.0)
        case "walk": samples.append(time { workload.walk() }.0)
        case "encode": samples.append(time { workload.encode(archive) }.0)
        case "decode": samples.append(time { workload.decode() }.0)
        case "launch": samples.append(time { workload.launch(archive) }.0)
        default: samples.append(time { workload.restore() }.0)
        }
    }
    print(String(format: "%@ %@ %d: median %.3f µs per controller", loop, shape.rawValue, count, median(samples) / 1000 / Double(count)))
    exit(0)
}

struct Row {
    var shape: Shape
    var count: Int
    var rounds: Int
    /// Median µs per controller of each operation.
    var preserve = 0.0, plistEncode = 0.0, jsonEncode = 0.0
    var restore = 0.0, plistDecode = 0.0, jsonDecode = 0.0
    var bytes = 0, plistBytes = 0, jsonBytes = 0
}

var rows: [Row] = []
for count in sizes {
    for shape in shapes {
        let workload = Workload(shape: shape, count: count)
        let plist = workload.plistEncode()
        let json = workload.jsonEncode()
        // Odd round counts for a true median; about 200k controllers per operation, 5 rounds at least.
        let rounds = max(5, min(301, 200_000 / count)) | 1
        var samples = [[Double]](repeating: [], count: 6)
        for round in 0...rounds {
            // Alternate the operations within each round, so that a busy moment hits all of them.
            let measured = [
                time { workload.preserve() }.0,
                time { workload.plistEncode() }.0,
                time { workload.jsonEncode() }.0,
                time { workload.restore() }.0,
                time { workload.plistDecode(plist) }.0,
                time { workload.jsonDecode(json) }.0,
            ]
            guard round > 0 else { continue }  // the first round warms up
            for (index, value) in measured.enumerated() { samples[index].append(value) }
        }
        let perController = samples.map { median($0) / 1000 / Double(count) }
        var row = Row(shape: shape, count: count, rounds: rounds)
        (row.preserve, row.plistEncode, row.jsonEncode) = (perController[0], perController[1], perController[2])
        (row.restore, row.plistDecode, row.jsonDecode) = (perController[3], perController[4], perController[5])
        (row.bytes, row.plistBytes, row.jsonBytes) = (workload.bytes.count, plist.count, json.count)
        rows.append(row)
        FileHandle.standardError.write(Data("measured \(shape.rawValue) \(count) (\(rounds) rounds)\n".utf8))
    }
}

func format(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }
func ratio(_ value: Double) -> String { String(format: "%.1f×", value) }
func size(_ bytes: Int, _ count: Int) -> String { String(format: "%.1f", Double(bytes) / Double(count)) }

print("µs per controller, medians of alternating runs; ratio = Foundation's time / RestorationKit's")
print("| shape | controllers | preserve | plist encode | JSON encode | restore | plist decode | JSON decode | bytes/controller: RK, plist, JSON |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
for row in rows {
    print(
        "| \(row.shape.rawValue) | \(row.count) | \(format(row.preserve)) "
            + "| \(format(row.plistEncode)) (\(ratio(row.plistEncode / row.preserve))) "
            + "| \(format(row.jsonEncode)) (\(ratio(row.jsonEncode / row.preserve))) "
            + "| \(format(row.restore)) "
            + "| \(format(row.plistDecode)) (\(ratio(row.plistDecode / row.restore))) "
            + "| \(format(row.jsonDecode)) (\(ratio(row.jsonDecode / row.restore))) "
            + "| \(size(row.bytes, row.count)), \(size(row.plistBytes, row.count)), \(size(row.jsonBytes, row.count)) |")
}

var failures: [String] = []
for row in rows {
    let name = "\(row.shape.rawValue) \(row.count)"
    if row.preserve > 2 { failures.append("\(name): preserve takes \(format(row.preserve)) µs per controller, over 2") }
    if row.restore > 2 { failures.append("\(name): restore takes \(format(row.restore)) µs per controller, over 2") }
    if row.plistEncode / row.preserve < 5 {
        failures.append("\(name): preserve is only \(ratio(row.plistEncode / row.preserve)) faster than PropertyListEncoder")
    }
    if row.plistDecode / row.restore < 5 {
        failures.append("\(name): restore is only \(ratio(row.plistDecode / row.restore)) faster than PropertyListDecoder")
    }
    if row.count >= 100_000, row.bytes > ArchiveLimits.default.hard {
        failures.append("\(name): \(row.bytes) bytes is over the default hard limit")
    }
}
// Depth: a presentation chain (depth n) against a custom container (depth 2) of the same size, whose
// identifiers are as long ("Modal…" and "Child…").
for chain in rows where chain.shape == .presentationChain {
    guard let flat = rows.first(where: { $0.shape == .customContainer && $0.count == chain.count }) else { continue }
    let difference = Double(chain.bytes - flat.bytes) / Double(chain.count)
    if abs(difference) > 3 {
        failures.append("\(chain.count): a chain takes \(format(difference)) bytes more per controller than a flat container")
    }
}
print("")
print(failures.isEmpty ? "goals: all met" : "goals not met:\n" + failures.map { "  - \($0)" }.joined(separator: "\n"))

if let dataPath {
    var text = "# shape\tcontrollers\tpreserve\tplist_encode\tjson_encode\trestore\tplist_decode\tjson_decode\tbytes\tplist_bytes\tjson_bytes\n"
    for shape in shapes {
        for row in rows where row.shape == shape {
            text += "\(row.shape.rawValue)\t\(row.count)\t\(row.preserve)\t\(row.plistEncode)\t\(row.jsonEncode)\t"
                + "\(row.restore)\t\(row.plistDecode)\t\(row.jsonDecode)\t\(row.bytes)\t\(row.plistBytes)\t\(row.jsonBytes)\n"
        }
        text += "\n\n"  // gnuplot: one data block per shape
    }
    try text.write(toFile: dataPath, atomically: true, encoding: .utf8)
}
exit(failures.isEmpty ? 0 : 1)
