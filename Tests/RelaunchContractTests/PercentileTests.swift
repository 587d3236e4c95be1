import RelaunchContract
import Testing

/// Nearest rank: the value at rank ⌈p·n⌉ of the sorted values, the rank clamped to 1…n.
@Suite("Nearest-rank percentiles")
struct PercentileTests {
    static let ten: [Int] = [70, 10, 100, 40, 20, 90, 30, 60, 80, 50]

    @Test("known small samples", arguments: [
        // n = 1: every p is the one value.
        (0.0, [7], 7), (0.5, [7], 7), (0.95, [7], 7), (0.99, [7], 7), (1.0, [7], 7),
        // n = 2: rank ⌈2p⌉, clamped up to 1 at p = 0.
        (0.0, [9, 3], 3), (0.5, [9, 3], 3), (0.95, [9, 3], 9), (0.99, [9, 3], 9), (1.0, [9, 3], 9),
        // n = 10 (given unsorted): ranks 1, 5, 10, 10, 10.
        (0.0, ten, 10), (0.5, ten, 50), (0.95, ten, 100), (0.99, ten, 100), (1.0, ten, 100),
    ])
    func knownSamples(p: Double, values: [Int], expected: Int) {
        #expect(percentile(p, of: values) == expected, "p = \(p) of \(values)")
    }

    @Test("no values, no percentile")
    func empty() {
        #expect(percentile(0.5, of: [Int]()) == nil)
    }

    @Test("a rank that is a whole number stays that rank, whatever p·n rounds to in binary")
    func wholeRanks() {
        let hundred = Array(1...100)
        #expect(percentile(0.07, of: hundred) == 7)  // 0.07 · 100 is 7.000000000000001 in Double
        #expect(percentile(0.95, of: Array(1...20)) == 19)
        #expect(percentile(0.5, of: [1, 2, 3, 4]) == 2)
    }
}
