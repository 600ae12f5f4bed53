import WaymarkCore

@testable import WaymarkStore

/// Times and records the history tests share.
enum HistorySample {
    /// 2008-08-21T13:57:20Z, the SAMO ride's first transition.
    static let base = Timestamp(nanosecondsSince1970: 1_219_327_040_000_000_000)

    static func at(_ seconds: Double) -> Timestamp { base.adding(seconds: seconds) }

    /// A gpsd fix with every optional field.
    static let fullFix = Fix(
        time: at(0), coordinate: Coordinate(latitude: 34.1, longitude: -118.7), altitude: 254.25,
        horizontalAccuracy: 4.5, verticalAccuracy: 9, hdop: 0.8, vdop: 1.25, pdop: 1.5, satellites: 11,
        mode: .threeD, speed: 2.75, course: 359.5, latitudeAccuracy: 3.25, longitudeAccuracy: 2.5)

    /// A GPX point: position and time only, and a coordinate that is not a short decimal.
    static let bareFix = Fix(time: at(2), coordinate: Coordinate(latitude: 34.1 + 1 / 3.0, longitude: -118.7))

    /// A region event with the record `waymark replay` prints for it.
    static func enter(_ region: String, at seconds: Double) -> StoredEvent {
        let time = at(seconds)
        return StoredEvent(
            time: time, kind: .region, region: region, transition: .enter,
            coordinate: Coordinate(latitude: 34.1, longitude: -118.7),
            record: #"{"kind":"region","transition":"enter","region":"\#(region)","time":"\#(time.rfc3339)","latitude":34.1,"longitude":-118.7}"#)
    }
}

extension WaymarkStore {
    /// Every item of `query`, collected (tests only: `history` streams).
    func collect(_ query: HistoryQuery = HistoryQuery()) throws -> [HistoryItem] {
        var items: [HistoryItem] = []
        try history(query) { items.append($0) }
        return items
    }

    /// `historyCounts()` as `[fixes, gaps, events]`.
    func historyCountList() throws -> [Int] {
        let counts = try historyCounts()
        return [counts.fixes, counts.gaps, counts.events]
    }
}
