import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkStore

/// `WaymarkStore.fixDays`: a device's fixes counted per local day of a zone, through the
/// 15-minute UTC groups, on a real SpatiaLite file.
@Suite struct FixDaysTests {
    static func time(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }

    static func store(_ times: [String], device: String = "phone") throws -> (WaymarkStore, TemporaryDirectory) {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("w.sqlite"), logger: quietLogger)
        let fixes = times.map { Fix(time: time($0), coordinate: Coordinate(latitude: 52.5, longitude: 13.4)) }
        _ = try store.recordFixes(fixes, source: "test", device: device)
        return (store, folder)
    }

    static func days(_ store: WaymarkStore, _ zone: String, device: String = "phone") throws -> [String: Int] {
        let days = try store.fixDays(device: device, timeZone: TimeZone(identifier: zone)!)
        #expect(days.map(\.date) == days.map(\.date).sorted(), "oldest first")
        return Dictionary(uniqueKeysWithValues: days.map { ($0.date, $0.fixes) })
    }

    /// Berlin's 23-hour day (2026-03-29, clocks forward at 01:00Z) and 25-hour day (2026-10-25,
    /// back at 01:00Z): each fix a second either side of a local midnight.
    @Test func berlinsDaylightSavingDaysHaveTheirOwnMidnights() throws {
        let (store, folder) = try Self.store([
            "2026-03-28T22:59:59Z",  // 23:59:59 CET, the 28th
            "2026-03-28T23:00:00Z",  // 00:00 CET, the 29th
            "2026-03-29T21:59:59Z",  // 23:59:59 CEST, the 29th
            "2026-03-29T22:00:00Z",  // 00:00 CEST, the 30th
            "2026-10-24T21:59:59Z",  // 23:59:59 CEST, the 24th
            "2026-10-24T22:00:00Z",  // 00:00 CEST, the 25th
            "2026-10-25T22:59:59Z",  // 23:59:59 CET, still the 25th
            "2026-10-25T23:00:00Z",  // 00:00 CET, the 26th
        ])
        _ = folder
        #expect(try Self.days(store, "Europe/Berlin") == [
            "2026-03-28": 1, "2026-03-29": 2, "2026-03-30": 1, "2026-10-24": 1, "2026-10-25": 2, "2026-10-26": 1,
        ])
        #expect(try Self.days(store, "UTC") == ["2026-03-28": 2, "2026-03-29": 2, "2026-10-24": 2, "2026-10-25": 2])
    }

    /// Kathmandu is 5 h 45 min ahead: its day starts at 18:15Z the day before.
    @Test func kathmandusDayStartsAtAQuarterPast() throws {
        let (store, folder) = try Self.store(["2026-05-31T18:14:59Z", "2026-05-31T18:15:00Z", "2026-06-01T18:14:59Z", "2026-06-01T18:15:00Z"])
        _ = folder
        #expect(try Self.days(store, "Asia/Kathmandu") == ["2026-05-31": 1, "2026-06-01": 2, "2026-06-02": 1])
    }

    /// Monrovia kept -0:44:30 until 1972: its midnight falls inside a 15-minute group, which is
    /// then counted exactly; a time before 1970 falls in its own group.
    @Test func aMidnightInsideAGroupSplitsIt() throws {
        let (store, folder) = try Self.store(["1969-12-31T12:00:00Z", "1970-01-01T00:44:29Z", "1970-01-01T00:44:30Z", "1970-01-01T00:44:31Z"])
        _ = folder
        let monrovia = TimeZone(identifier: "Africa/Monrovia")!
        try #require(monrovia.secondsFromGMT(for: Date(timeIntervalSince1970: 0)) == -2670, "the zone data lacks Monrovia's old offset")
        #expect(try Self.days(store, "Africa/Monrovia") == ["1969-12-31": 2, "1970-01-01": 2])
        #expect(try Self.days(store, "UTC") == ["1969-12-31": 1, "1970-01-01": 3])
    }

    @Test func aDeviceWithoutFixesHasNoDays() throws {
        let (store, folder) = try Self.store(["2026-06-01T12:00:00Z"])
        _ = folder
        #expect(try Self.days(store, "Europe/Berlin", device: "tracker").isEmpty)
        #expect(try Self.days(store, "Europe/Berlin", device: "local").isEmpty)
    }

    /// A year of fixes at random times, in zones with half- and quarter-hour offsets and their
    /// own daylight saving, counted as Foundation's calendar counts them one by one.
    @Test(arguments: ["Europe/Berlin", "Asia/Kathmandu", "America/St_Johns", "Australia/Lord_Howe", "Pacific/Chatham", "America/Santiago"])
    func everyZoneAgreesWithTheCalendar(zone: String) throws {
        var generator = SplitMix64(seed: 42)
        let start = Self.time("2025-12-31T00:00:00Z").nanosecondsSince1970
        let times = (0..<3000).map { _ in Timestamp(nanosecondsSince1970: start + Int64(generator.next() % (367 * 86_400_000_000_000))) }
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("w.sqlite"), logger: quietLogger)
        _ = try store.recordFixes(times.map { Fix(time: $0, coordinate: Coordinate(latitude: 0, longitude: 0)) }, source: "test", device: "phone")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        var expected: [String: Int] = [:]
        for time in times {
            let date = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(time.nanosecondsSince1970) / 1e9))
            expected[String(format: "%04d-%02d-%02d", date.year!, date.month!, date.day!), default: 0] += 1
        }
        #expect(try Self.days(store, zone) == expected)
    }
}
