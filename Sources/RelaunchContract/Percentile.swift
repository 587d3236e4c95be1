/// The nearest-rank percentile `p` of `values`: the value at rank ⌈p·n⌉ of the n values sorted
/// ascending, the rank clamped to 1…n (so p = 0 is the smallest value, p = 1 the largest).
///
/// Every Swift figure of the project is computed by it (the journal timeline's relaunch median and
/// p95, relaunch-bench, Examples/ToggleTests' toggle-bench); docs/MEASUREMENTS.md states the rule.
/// - Parameters:
///   - p: The fraction, 0…1 (0.95 for p95).
///   - values: The samples, in any order.
/// - Returns: The percentile, or nil when `values` is empty.
public func percentile<Value: Comparable>(_ p: Double, of values: some Collection<Value>) -> Value? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    // p·n is a product of binary fractions (0.07 · 100 is 7.000000000000001): a rank within a
    // billionth above a whole number is that whole number.
    let rank = Int((p * Double(sorted.count) - 1e-9).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
}
