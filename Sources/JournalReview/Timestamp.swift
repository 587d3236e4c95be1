/// Formats journal timestamps without Foundation's calendar machinery.
package enum Timestamp {
    /// `usec` since the epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC). Never before the epoch (unsigned).
    package static func iso8601(_ usec: UInt64) -> String {
        let seconds = Int64(usec / 1_000_000)
        let millis = Int(usec / 1000 % 1000)
        let days = seconds / 86_400
        let secondOfDay = Int(seconds % 86_400)
        let (year, month, day) = civil(fromDays: days)
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60))"
            + ":\(two(secondOfDay % 60)).\(three(millis))Z"
    }

    /// Howard Hinnant's days-to-civil algorithm, for days on or after the epoch (so `z` is never
    /// negative and its era needs no rounding toward minus infinity).
    private static func civil(fromDays z: Int64) -> (Int64, Int, Int) {
        let z = z + 719_468
        let era = z / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    private static func three(_ n: Int) -> String { n < 10 ? "00\(n)" : n < 100 ? "0\(n)" : "\(n)" }
}
