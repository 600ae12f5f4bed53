import Foundation
import Testing
import WaymarkCore
import WaymarkTimelineJob

/// `--day`: local midnight to local midnight, DST included; bad days and zones are typed errors.
@Suite struct TimelineDayTests {
    @Test(arguments: [
        ("2026-05-02", "UTC", "2026-05-02T00:00:00Z", "2026-05-03T00:00:00Z"),
        ("2026-05-02", "Europe/Berlin", "2026-05-01T22:00:00Z", "2026-05-02T22:00:00Z"),
        ("2026-03-29", "Europe/Berlin", "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z"),  // 23 h: clocks go forward
        ("2026-10-25", "Europe/Berlin", "2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z"),  // 25 h: clocks go back
        ("2026-12-31", "America/New_York", "2026-12-31T05:00:00Z", "2027-01-01T05:00:00Z"),
        ("2028-02-29", "Asia/Kolkata", "2028-02-28T18:30:00Z", "2028-02-29T18:30:00Z"),
    ])
    func localDays(day: String, zone: String, from: String, to: String) throws {
        let range = try TimelineDay(day).range(in: zone)
        #expect(range.from.rfc3339 == from)
        #expect(range.to.rfc3339 == to)
        #expect(try TimelineDay(day).description == day)
    }

    @Test(arguments: ["2026-02-30", "2026-13-01", "2026-5-2", "02-05-2026", "", "2026-05-02T00:00", "２０２６-05-02", "2026-00-10"])
    func notADay(_ text: String) {
        #expect(throws: TimelineError.self) { try TimelineDay(text) }
        do {
            _ = try TimelineDay(text)
        } catch {
            #expect(error.code == .invalidDay)
            #expect(error.message.contains("YYYY-MM-DD"))
        }
    }

    @Test func unknownZone() throws {
        do {
            _ = try TimelineDay("2026-05-02").range(in: "Mars/Olympus")
            Issue.record("a zone that does not exist was accepted")
        } catch {
            #expect(error.code == .unknownTimeZone)
            #expect(error.message.contains("Mars/Olympus"))
        }
    }
}
