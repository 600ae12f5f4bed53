import Foundation
import WaymarkCore

extension TimelineJob {
    /// The range of the latest local day `device` has history for: the day holding its last fix,
    /// in the zone where it was that day (`day(device:_:timeZone:)`); nil without history. The
    /// default of `waymark timeline`, `export --timeline` and the web page's day view.
    public func latestDay(device: String) async throws -> (from: Timestamp, to: Timestamp, timeZone: String)? {
        guard let last = try await store.offPool({ try $0.lastFix(device: device) }) else { return nil }
        // The zone where the device was that (UTC) day, then the local day holding its last fix.
        let utcDay = try TimelineDay(String(last.time.rfc3339.prefix(10)))
        let zone = try await day(device: device, utcDay).timeZone
        let local = LocalClock(TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")!).isoDate(last.time)
        return try await day(device: device, try TimelineDay(local), timeZone: zone)
    }
}
