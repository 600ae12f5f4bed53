import WaymarkCore

/// Where the phone truly is, second by second, along a recorded track: on the straight line
/// between recorded points at a steady pace (as the receiver's own fixes are modelled in
/// replay), one sample a second. Across a silence (`SilenceRule.standard`: more than 300 s
/// without a point) nothing is invented: the next sample is the point after it.
struct PhoneTruth: Sendable {
    struct Sample: Sendable, Equatable {
        var time: Timestamp
        var coordinate: Coordinate
        /// Metres per second, from the recorded leg the sample is on.
        var speed: Double
        /// Degrees clockwise from north along that leg; nil while standing still.
        var course: Double?
    }

    /// Seconds between samples.
    static let step = 1.0

    private let points: [Fix]
    private var index = 0
    private var offset = 0.0

    /// `track`'s timed points in time order (points without a time, or going back in time, are
    /// left out: the phone cannot be at two places at once).
    init(track: [Fix]) {
        var points: [Fix] = []
        for fix in track {
            guard let time = fix.time else { continue }
            if let last = points.last?.time, time <= last { continue }
            points.append(fix)
        }
        self.points = points
    }

    var isEmpty: Bool { points.isEmpty }
    var start: Timestamp? { points.first?.time }
    var end: Timestamp? { points.last?.time }

    /// The next sample; nil after the last recorded point.
    mutating func next() -> Sample? {
        guard index < points.count else { return nil }
        let from = points[index]
        guard index + 1 < points.count else {
            index += 1
            return Sample(time: from.time!, coordinate: from.coordinate, speed: 0, course: nil)
        }
        let to = points[index + 1]
        let start = from.time!, end = to.time!
        let span = end.seconds(since: start)
        let leg = Geodesic.inverse(from.coordinate, to.coordinate)
        let speed = leg.distance / span
        let course = leg.distance > 0.5 ? (leg.initialAzimuth + 360).truncatingRemainder(dividingBy: 360) : nil
        if SilenceRule.standard.silence(from: start, to: end) != nil {
            index += 1
            offset = 0
            return Sample(time: start, coordinate: from.coordinate, speed: 0, course: nil)
        }
        let t = offset / span
        let longitude = Coordinate.wrapped(
            longitude: from.coordinate.longitude + t * Coordinate.degreesEast(from: from.coordinate.longitude, to: to.coordinate.longitude))
        let coordinate = Coordinate(
            latitude: from.coordinate.latitude + t * (to.coordinate.latitude - from.coordinate.latitude), longitude: longitude)
        let sample = Sample(time: start.adding(seconds: offset), coordinate: coordinate, speed: speed, course: course)
        offset += Self.step
        if offset >= span - 1e-6 {
            index += 1
            offset = 0
        }
        return sample
    }
}
