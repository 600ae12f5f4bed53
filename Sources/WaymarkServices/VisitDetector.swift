import WaymarkCore

/// The visits service (docs/semantics.md §2): an arrival when the device has stayed within `radius`
/// metres of a place for at least `minimumDuration` seconds, and a departure when it then
/// leaves. Defaults 100 m / 300 s ("within ~100 m for several minutes").
///
/// Algorithm. A *candidate stay* starts at a fix (its anchor). Each next fix within `radius`
/// (WGS84 geodesic, inclusive) of the stay's running centre — the mean of the stay's fixes so
/// far — and of the anchor joins the stay (the anchor keeps a slow walk, whose running mean
/// follows the walker, from passing for a stay). When the stay first spans `minimumDuration` (last fix's time minus the
/// first's, inclusive), an arrival is emitted. A fix outside the radius ends the stay: after an
/// arrival it emits a departure; either way a new candidate stay starts at that fix (the
/// simplest restart: earlier fixes are not reconsidered).
///
/// Silences follow `SilenceRule` (docs/semantics.md §2.6) with the visit radius: a fix more than
/// 300 s after the last one and within `radius` of it continues the stay, whatever its distance
/// from the anchor and centre (a logger that stopped recording at the place, a receiver that
/// came back with a cold-start error), and starts a new *leg*: the next fixes are judged against
/// the leg's first fix and running centre, as a new stay's would be. A fix farther away
/// after a silence ends the stay at the last fix before it. The reported centre and uncertainty
/// are over all the stay's fixes.
///
/// Records have kind `visit` and, in order:
/// - arrival: `"event":"arrival"`, `"arrivalTime"`, `"uncertainty"`; time is the stay's first
///   fix (stamped back, as Core Location does), coordinate the centre at the moment of arrival.
/// - departure: `"event":"departure"`, `"arrivalTime"`, `"departureTime"`, `"uncertainty"`;
///   time and `departureTime` are those of the *last fix inside* the radius (the device was
///   last seen at the place then), coordinate the centre of the whole stay.
///
/// `uncertainty` is the largest geodesic distance in metres of any of the stay's fixes from
/// the reported centre (so every fix is inside that circle), rounded to centimetres.
/// The centre is the mean latitude and the mean longitude, with longitudes unwrapped around the
/// anchor so a stay on the antimeridian averages correctly. An open stay at the end of the
/// input emits nothing. Memory grows with the length of a stay (one coordinate per fix).
public struct VisitDetector: LocationService, Sendable {
    /// Metres from the stay's centre within which the device is still at the place; default 100.
    public var radius: Double
    /// Seconds the device must stay before an arrival is reported; default 300.
    public var minimumDuration: Double
    /// Seconds between fixes beyond which there was a silence (`SilenceRule.threshold`); default 300.
    public var silenceThreshold: Double

    private var stay: Stay?

    public init(radius: Double = 100, minimumDuration: Double = 300, silenceThreshold: Double = SilenceRule.standard.threshold) {
        self.radius = radius
        self.minimumDuration = minimumDuration
        self.silenceThreshold = silenceThreshold
    }

    public mutating func process(_ fix: Fix) -> [LocationRecord] {
        guard let time = fix.time else { return [] }
        guard var current = stay else {
            stay = Stay(first: time, coordinate: fix.coordinate)
            return []
        }
        // Held only in `current` until it is put back, so adding a fix appends in place instead of
        // copying the stay's coordinates (a copy per fix made a long stay quadratic).
        stay = nil
        switch SilenceRule(threshold: silenceThreshold, radius: radius).judge(from: Fix(time: current.last, coordinate: current.lastCoordinate), to: fix) {
        case .stay:
            current.add(time, fix.coordinate, startingLeg: true)
        case .continuous where Geodesic.isWithin(current.legCentre, fix.coordinate, metres: radius)
            && Geodesic.isWithin(current.legAnchor, fix.coordinate, metres: radius):
            current.add(time, fix.coordinate, startingLeg: false)
        case .continuous, .gap:
            stay = Stay(first: time, coordinate: fix.coordinate)
            return current.arrived ? [departure(of: current)] : []
        }
        var records: [LocationRecord] = []
        if !current.arrived, current.last.seconds(since: current.first) >= minimumDuration {
            current.arrived = true
            records.append(arrival(of: current))
        }
        stay = current
        return records
    }

    /// An open stay reports nothing: the device has not departed.
    public mutating func finish() -> [LocationRecord] { [] }

    /// The departure the current stay would report if the device left it now (its centre and
    /// uncertainty over its fixes so far), once its arrival has been reported; nil before that.
    public var pendingDeparture: LocationRecord? {
        stay.flatMap { $0.arrived ? departure(of: $0) : nil }
    }

    /// The current stay's first fix, reported or not (`ServiceMark.stay`).
    public var mark: ServiceMark? {
        stay.map { ServiceMark(kind: .stay, time: $0.first, coordinate: $0.anchor) }
    }

    /// Rebuilds the current stay from the stored fixes since its first: the same fixes give the
    /// same stay, so a departure owed has the true arrival time, centre and uncertainty, and an
    /// arrival not yet reported comes at the fix it would have come at. What the rebuilding
    /// reports (an arrival) was delivered before the restart and is dropped. Fixes that do not
    /// start at the saved stay's first (retention removed them) leave the detector fresh rather
    /// than invent a different arrival time.
    public mutating func resume(from marks: [ServiceMark], replaying fixes: [Fix]) {
        guard let saved = marks[.stay] else { return }
        let since = fixes.drop { ($0.time ?? saved.time) < saved.time }
        guard let first = since.first, first.time == saved.time, first.coordinate == saved.coordinate else { return }
        var rebuilt = VisitDetector(radius: radius, minimumDuration: minimumDuration, silenceThreshold: silenceThreshold)
        for fix in since { _ = rebuilt.process(fix) }
        stay = rebuilt.stay
    }

    private func arrival(of stay: Stay) -> LocationRecord {
        let centre = stay.centre
        return LocationRecord(
            kind: .visit, time: stay.first, coordinate: centre,
            visit: .init(event: .arrival, arrivalTime: stay.first, uncertainty: stay.uncertainty(about: centre)))
    }

    private func departure(of stay: Stay) -> LocationRecord {
        let centre = stay.centre
        return LocationRecord(
            kind: .visit, time: stay.last, coordinate: centre,
            visit: .init(event: .departure, arrivalTime: stay.first, departureTime: stay.last, uncertainty: stay.uncertainty(about: centre)))
    }
}

/// The fixes of one candidate stay: their running mean over the whole stay (reported) and over
/// the current leg (judged against), and the farthest of them from a centre.
private struct Stay: Sendable {
    let first: Timestamp
    var last: Timestamp
    var arrived = false
    private var coordinates: [Coordinate] = []
    private var whole: RunningMean
    private var leg: RunningMean
    /// The stay's first position (`ServiceMark.stay`).
    var anchor: Coordinate { coordinates[0] }
    /// The current leg's first position: fixes must stay within the radius of it too, so a slow
    /// walk (whose running mean follows the walker) is not taken for a stay.
    private(set) var legAnchor: Coordinate
    var lastCoordinate: Coordinate { coordinates[coordinates.count - 1] }

    init(first: Timestamp, coordinate: Coordinate) {
        self.first = first
        self.last = first
        whole = RunningMean(around: coordinate)
        leg = whole
        legAnchor = coordinate
        add(first, coordinate, startingLeg: false)
    }

    /// Adds a fix; `startingLeg` after a silence the device stayed through.
    mutating func add(_ time: Timestamp, _ coordinate: Coordinate, startingLeg: Bool) {
        if startingLeg {
            leg = RunningMean(around: coordinate)
            legAnchor = coordinate
        }
        last = time
        coordinates.append(coordinate)
        whole.add(coordinate)
        leg.add(coordinate)
    }

    /// The mean of the stay's fixes.
    var centre: Coordinate { whole.mean }

    /// The mean of the current leg's fixes.
    var legCentre: Coordinate { leg.mean }

    /// Largest distance in metres of a stay fix from `centre`, rounded to centimetres.
    func uncertainty(about centre: Coordinate) -> Double {
        let largest = coordinates.map { Geodesic.distance(centre, $0) }.max() ?? 0
        return (largest * 100).rounded() / 100
    }
}

/// The mean latitude and longitude of some positions, longitudes unwrapped around the first so
/// positions on both sides of the antimeridian average correctly.
private struct RunningMean: Sendable {
    private let originLongitude: Double
    private var latitudeSum = 0.0
    private var longitudeOffsetSum = 0.0
    private var count = 0.0

    init(around coordinate: Coordinate) { originLongitude = coordinate.longitude }

    mutating func add(_ coordinate: Coordinate) {
        latitudeSum += coordinate.latitude
        longitudeOffsetSum += (coordinate.longitude - originLongitude).remainder(dividingBy: 360)
        count += 1
    }

    var mean: Coordinate {
        var longitude = originLongitude + longitudeOffsetSum / count
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return Coordinate(latitude: latitudeSum / count, longitude: longitude)
    }
}
