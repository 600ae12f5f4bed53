import Foundation
import WaymarkCore

/// A simulated day as a phone records it, for the timeline's tests: five stays joined by a walk,
/// a ride and two drives, with the noise real receivers add — fixes wandering tens of metres at a
/// stay, a few far outliers, accuracy missing on some fixes, altitudes only on some, a silence
/// at the office (the receiver off) and a tunnel's gap on the drive. Seeded, so the same day
/// every time. Roughly (UTC, 2026-06-01): home 05:00–06:30, walk, café 06:49–07:27, ride,
/// office 07:46–10:51 with no fixes 08:56–09:16, drive (tunnel about 10:56), stop 11:03–11:33,
/// drive, a last stay 11:45–12:45.
public struct NoisyDay: Sendable {
    /// Where the day starts (home), and when.
    public static let home = Coordinate(latitude: 48.137, longitude: 11.575)
    public static let start = Timestamp(nanosecondsSince1970: 1_780_290_000_000_000_000)  // 2026-06-01T05:00:00Z

    /// The fixes in time order.
    public private(set) var fixes: [Fix] = []
    private var random: SplitMix64
    private var position = NoisyDay.home
    private var clock = 0.0

    public init(seed: UInt64 = 41) {
        random = SplitMix64(seed: seed)
        stay(minutes: 90, every: 10)
        travel(metres: 1_500, azimuth: 60, speed: 1.3, every: 5)  // walk to the café
        stay(minutes: 38, every: 10)
        travel(metres: 6_000, azimuth: 150, speed: 5.2, every: 5, climbing: 0.01)  // ride to the office
        stay(minutes: 70, every: 10)
        clock += 20 * 60  // the receiver off at the office
        stay(minutes: 95, every: 10)
        travel(metres: 7_000, azimuth: 280, speed: 10, every: 5, gap: 0.4...0.55)  // a drive, through a tunnel
        stay(minutes: 30, every: 15)
        travel(metres: 8_000, azimuth: 10, speed: 11, every: 5)  // a drive on
        stay(minutes: 60, every: 10)
    }

    /// The fixes before `time` (a daemon stopped then).
    public func fixes(before time: Timestamp) -> [Fix] { fixes.filter { ($0.time ?? time) < time } }

    /// The day as GPX 1.1: one track, `<ele>` and `<hdop>` only where the fix has them.
    public static func gpx(_ fixes: [Fix]) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="waymark-tests" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>

            """
        for fix in fixes {
            text += "<trkpt lat=\"\(fix.coordinate.latitude)\" lon=\"\(fix.coordinate.longitude)\">"
            if let altitude = fix.altitude { text += "<ele>\(altitude)</ele>" }
            if let time = fix.time { text += "<time>\(time.rfc3339)</time>" }
            if let hdop = fix.hdop { text += "<hdop>\(hdop)</hdop>" }
            text += "</trkpt>\n"
        }
        return text + "</trkseg></trk></gpx>\n"
    }

    /// Standing about a place: each fix within ~35 m of it, one in forty 2–4 km off.
    private mutating func stay(minutes: Double, every interval: Double) {
        let place = position
        for _ in 0..<Int(minutes * 60 / interval) {
            let outlier = Int.random(in: 0..<40, using: &random) == 0
            let distance = outlier ? Double.random(in: 2_000...4_000, using: &random) : abs(gaussian()) * 12
            add(Geodesic.destination(from: place, azimuth: Double.random(in: 0..<360, using: &random), distance: min(distance, outlier ? 4_000 : 35)))
            clock += interval
        }
        position = place
    }

    /// Moving straight on at `speed` with a few metres of noise; no fixes in the `gap` fraction.
    private mutating func travel(
        metres: Double, azimuth: Double, speed: Double, every interval: Double, climbing: Double = 0, gap: ClosedRange<Double>? = nil
    ) {
        let from = position
        let steps = Int(metres / speed / interval)
        for step in 1...steps {
            let along = Double(step) / Double(steps)
            clock += interval
            position = Geodesic.destination(from: from, azimuth: azimuth, distance: metres * along)
            if let gap, gap.contains(along) { continue }
            let noisy = Geodesic.destination(from: position, azimuth: Double.random(in: 0..<360, using: &random), distance: abs(gaussian()) * 4)
            add(noisy, altitude: climbing > 0 ? 520 + metres * along * climbing : nil)
        }
    }

    private mutating func add(_ coordinate: Coordinate, altitude: Double? = nil) {
        let rounded = Coordinate(latitude: (coordinate.latitude * 1e7).rounded() / 1e7, longitude: (coordinate.longitude * 1e7).rounded() / 1e7)
        let hdop: Double? = Int.random(in: 0..<4, using: &random) == 0 ? nil : Double(Int.random(in: 6...25, using: &random)) / 10
        fixes.append(Fix(
            time: Self.start.adding(seconds: clock.rounded()), coordinate: rounded, altitude: altitude.map { ($0 * 10).rounded() / 10 },
            horizontalAccuracy: hdop.map { $0 * 5 }, hdop: hdop))
    }

    /// A standard normal deviate (Box–Muller).
    private mutating func gaussian() -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
        let v = Double.random(in: 0..<1, using: &random)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
