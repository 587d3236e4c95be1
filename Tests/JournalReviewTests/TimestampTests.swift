import JournalReview
import Testing

/// The timeline's times, checked against a calendar counted day by day (an oracle that shares no
/// arithmetic with the formatter's era algorithm).
@Suite("Journal timeline: timestamps")
struct TimestampTests {
    /// Year, month and day of `days` after 1970-01-01, counted one year and one month at a time.
    static func countedDate(days: Int64) -> (year: Int64, month: Int, day: Int) {
        func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }
        var (year, left) = (Int64(1970), days)
        while left >= (isLeap(year) ? 366 : 365) {
            left -= isLeap(year) ? 366 : 365
            year += 1
        }
        let lengths = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var month = 0
        while left >= Int64(lengths[month]) {
            left -= Int64(lengths[month])
            month += 1
        }
        return (year, month + 1, Int(left) + 1)
    }

    static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    static func expected(_ usec: UInt64) -> String {
        let seconds = Int64(usec / 1_000_000)
        let (year, month, day) = countedDate(days: seconds / 86_400)
        let second = seconds % 86_400
        return "\(year)-\(padded(Int64(month), 2))-\(padded(Int64(day), 2))T\(padded(second / 3600, 2)):"
            + "\(padded(second / 60 % 60, 2)):\(padded(second % 60, 2)).\(padded(Int64(usec / 1000 % 1000), 3))Z"
    }

    /// Days since the epoch of some dates where calendars go wrong: leap days, century years that
    /// are not leap years, and the last day of a 400-year era (2000-02-29).
    static let edgeDays: [Int64] = [
        0, 58, 59, 789, 790, 10_956, 11_016, 11_017, 11_019, 11_322, 47_540, 47_541, 47_542, 47_845,
        157_053, 157_054, 157_113, 157_114,
    ]

    @Test("Edge days (leap days, century years, the end of an era) are the calendar's dates")
    func edgeDaysMatchTheCalendar() {
        for days in Self.edgeDays {
            for usec in [UInt64(days) * 86_400_000_000, UInt64(days) * 86_400_000_000 + 86_399_999_999] {
                #expect(Timestamp.iso8601(usec) == Self.expected(usec), "day \(days)")
            }
        }
        #expect(Timestamp.iso8601(951_782_400_000_000) == "2000-02-29T00:00:00.000Z")
        #expect(Timestamp.iso8601(0) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp.iso8601(4_107_542_399_999_999) == "2100-02-28T23:59:59.999Z")
        #expect(Timestamp.iso8601(4_107_542_400_005_000) == "2100-03-01T00:00:00.005Z")
    }

    @Test("Times from 1970 to 2400 are the calendar's, to the millisecond", arguments: [1, 2, 3])
    func randomTimesMatchTheCalendar(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<300 {
            let usec = generator.next() % 13_574_649_600_000_000  // before 2400-03-01
            #expect(Timestamp.iso8601(usec) == Self.expected(usec))
        }
    }
}
