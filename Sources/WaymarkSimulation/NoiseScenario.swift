import WaymarkCore
import WaymarkRegions

/// A scene for the region engine's noise scenarios (BENCHMARKS.md "Region events on noisy
/// fixes"): the regions, where the device truly is at each fix, and the rests during which
/// nothing may change. `FixNoise` turns the truth into what a phone reports.
public struct NoiseScenario: Sendable {
    /// A stretch of time the device stays put in one place (a region's identifier, or nil
    /// when it rests outside every region).
    public struct Rest: Sendable, Equatable {
        public var from: Timestamp
        public var to: Timestamp
        public var place: String?
    }

    public var regions: [Region]
    public var truth: [Fix]
    public var rests: [Rest]

    /// A device lying `depth` metres inside a circle of `radius` metres for `duration` seconds,
    /// a fix every `interval` seconds: the "phone on the table at home" case.
    public static func stationary(
        radius: Double = 50, depth: Double = 20, duration: Double = 86_400, interval: Double = 1,
        center: Coordinate = Coordinate(latitude: 47.3769, longitude: 8.5417), start: Timestamp = Self.start
    ) -> NoiseScenario {
        let home = Region(identifier: "home", shape: .circle(center: center, radius: radius))
        let position = FixNoise.offset(center, north: radius - depth, east: 0)
        let count = Int(duration / interval)
        let truth = (0..<count).map { i in Fix(time: start.adding(seconds: Double(i) * interval), coordinate: position) }
        let rest = Rest(from: start, to: start.adding(seconds: duration), place: "home")
        return NoiseScenario(regions: [home], truth: truth, rests: [rest])
    }

    /// Two circles, `first` (r = 30 m) and `second` (r = 11 m), their centres 72 m apart (the
    /// zones of Home Assistant core issue 175663): the device rests `rest` seconds at the first
    /// centre, walks at `speed` to the second, rests, and so on for `moves` walks.
    public static func twoZones(
        moves: Int = 8, rest: Double = 900, speed: Double = 1.3, interval: Double = 1,
        center: Coordinate = Coordinate(latitude: 47.3769, longitude: 8.5417), start: Timestamp = Self.start
    ) -> NoiseScenario {
        let second = Geodesic.destination(from: center, azimuth: 90, distance: 72)
        let regions = [
            Region(identifier: "first", shape: .circle(center: center, radius: 30)),
            Region(identifier: "second", shape: .circle(center: second, radius: 11)),
        ]
        var truth: [Fix] = []
        var rests: [Rest] = []
        var time = start
        func stay(at place: Coordinate, _ name: String) {
            let from = time
            for _ in 0..<Int(rest / interval) {
                truth.append(Fix(time: time, coordinate: place))
                time = time.adding(seconds: interval)
            }
            rests.append(Rest(from: from, to: time, place: name))
        }
        func walk(from a: Coordinate, to b: Coordinate) {
            let geodesic = Geodesic.inverse(a, b)
            let steps = Int((geodesic.distance / speed / interval).rounded(.up))
            for step in 0..<steps {
                let distance = geodesic.distance * Double(step) / Double(steps)
                truth.append(Fix(time: time, coordinate: Geodesic.destination(from: a, azimuth: geodesic.initialAzimuth, distance: distance)))
                time = time.adding(seconds: interval)
            }
        }
        let places = [(center, "first"), (second, "second")]
        for move in 0...moves {
            let (place, name) = places[move % 2]
            stay(at: place, name)
            if move < moves { walk(from: place, to: places[(move + 1) % 2].0) }
        }
        return NoiseScenario(regions: regions, truth: truth, rests: rests)
    }

    /// 2026-06-01T00:00:00Z, the scenarios' default start.
    public static let start = Timestamp(nanosecondsSince1970: 1_780_272_000 * 1_000_000_000)
}
