import Testing
import WaymarkCore

@Suite struct TimestampHourTests {
    @Test(arguments: [
        ("2026-06-01T10:00:00Z", "2026-06-01T10:00:00Z"),
        ("2026-06-01T10:59:59.999Z", "2026-06-01T10:00:00Z"),
        ("2026-06-01T00:30:00+02:00", "2026-05-31T22:00:00Z"),
        ("1969-12-31T23:59:59Z", "1969-12-31T23:00:00Z"),  // before 1970: still the hour holding it
    ])
    func hourStartIsTheUTCHourHoldingTheInstant(time: String, hour: String) {
        #expect(Timestamp(rfc3339: time)!.hourStart == Timestamp(rfc3339: hour)!)
    }
}
