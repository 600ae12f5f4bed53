import Testing
import WaymarkCore
import WaymarkServices

/// The segmenter on simulated days with a phone's error: stays where the device stopped, trips
/// between them with the right mode, nothing invented by outliers or silences, and resuming
/// after a stored stay gives what a continuous run gives.
@Suite("TimelineSegmenter")
struct TimelineSegmenterTests {
    static let home = offset(north: 0)
    static let cafe = offset(north: 1500)
    static let office = offset(north: 1500, east: 4000)

    /// The true day and when each of its three stays began and ended (seconds after `startTime`):
    /// home 1 h → walk → café 30 min → cycle (6 min unrecorded mid-way) → office 4 h (3 h of
    /// them silent) → drive with stops → home 1 h (still there at the end).
    static func day() -> (truth: [Fix], stays: [(arrival: Double, departure: Double)]) {
        var day = SimulatedDay(at: home)
        var stays: [(Double, Double)] = []
        day.stay(for: 3600)
        stays.append((0, day.clock))
        day.travel(to: cafe, speed: 1.35)
        var arrival = day.clock
        day.stay(for: 1800)
        stays.append((arrival, day.clock))
        day.travel(to: offset(north: 1500, east: 1200), speed: 5.5)
        day.travel(to: offset(north: 1500, east: 3200), speed: 5.5, recorded: false)
        day.travel(to: office, speed: 5.5)
        arrival = day.clock
        day.stay(for: 1800)
        day.silence(for: 3 * 3600)
        day.stay(for: 1800)
        stays.append((arrival, day.clock))
        day.drive(
            through: [offset(north: 4000, east: 6000), offset(north: 6000, east: 2000), offset(north: 2000, east: -1000), home],
            speed: 14, stop: 45)
        day.stay(for: 3600)
        return (day.fixes, stays)
    }

    /// Every emitted segment, then the open ones.
    static func run(_ fixes: [Fix], _ segmenter: TimelineSegmenter = TimelineSegmenter()) -> (emitted: [TimelineSegment], open: [TimelineSegment]) {
        var segmenter = segmenter
        let emitted = fixes.flatMap { segmenter.process($0) }
        return (emitted, segmenter.open)
    }

    static func stays(_ segments: [TimelineSegment]) -> [TimelineStay] {
        segments.compactMap { if case .stay(let stay) = $0 { stay } else { nil } }
    }

    static func trips(_ segments: [TimelineSegment]) -> [TimelineTrip] {
        segments.compactMap { if case .trip(let trip) = $0 { trip } else { nil } }
    }

    /// The places of the day's stays, in order; the last one still open at the end.
    static let places = [home, cafe, office, home]

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func aNoisyDayGivesItsStaysAndTripsAndModes(seed: UInt64) throws {
        let (truth, expected) = Self.day()
        let (emitted, open) = Self.run(observed(truth, seed: seed))
        let stays = Self.stays(emitted + open)
        let trips = Self.trips(emitted)
        // Every stay is at one of the day's places, in the day's order. The visit rule may split
        // one in two where the stay's first fix lay near the radius (the anchor rule; a trip of
        // two fixes between them), so consecutive stays at the same place are one visit.
        var visits: [[TimelineStay]] = []
        for stay in stays {
            #expect(Self.places.contains { Geodesic.distance($0, stay.centre) < 100 }, "a stay nowhere: \(stay)")
            if let previous = visits.last?.last, Geodesic.distance(previous.centre, stay.centre) < 100 {
                visits[visits.count - 1].append(stay)
            } else {
                visits.append([stay])
            }
        }
        try #require(visits.count == 4, "stays: \(stays)")
        for (index, visit) in visits.enumerated() {
            #expect(Geodesic.distance(visit[0].centre, Self.places[index]) < 30)
            #expect(visit.allSatisfy { $0.uncertainty < 100 })
            guard index < expected.count else { continue }
            #expect(abs(visit[0].arrival.seconds(since: startTime) - expected[index].arrival) <= 180)
            #expect(abs(visit[visit.count - 1].departure.seconds(since: startTime) - expected[index].departure) <= 180)
        }
        let journeys = trips.filter { $0.fixCount > 2 }
        #expect(journeys.map(\.mode) == [.walking, .cycling, .driving])
        let drive = [(4000.0, 6000.0), (6000, 2000), (2000, -1000), (0, 0)].reduce(into: (Self.office, 0.0)) {
            let next = offset(north: $1.0, east: $1.1)
            $0 = (next, $0.1 + Geodesic.distance($0.0, next))
        }.1
        for (trip, length) in zip(journeys, [nil, nil, drive]) {
            // The walk and the ride are straight: their length is the distance between their ends.
            let truly = length ?? Geodesic.distance(trip.from, trip.to)
            #expect(abs(trip.distance - truly) < 0.05 * truly + 40, "\(trip.mode) \(trip.distance) m, truly \(truly) m")
            #expect(trip.movingTime <= trip.duration)
            #expect(trip.averageSpeed == trip.distance / trip.duration)
        }
        #expect(journeys[2].maxSpeed > 20 && journeys[2].maxSpeed < 26, "drive max \(journeys[2].maxSpeed) m/s, truly 22.4")
        #expect(journeys[0].maxSpeed < 2.5, "walk max \(journeys[0].maxSpeed) m/s, truly 1.35")
        #expect(journeys[1].movingTime < journeys[1].duration - 300, "the ride's unrecorded 6 minutes are not moving time")
        // In time order, alternating, each trip from the stay left to the stay reached.
        #expect(emitted.map(\.start) == emitted.map(\.start).sorted())
        for (trip, (left, reached)) in zip(trips, zip(stays, stays.dropFirst())) {
            #expect(trip.start == left.departure && trip.end == reached.arrival)
        }
    }

    @Test func outliersAndSilencesDoNotMakeStays() {
        var day = SimulatedDay(at: Self.home)
        day.stay(for: 1200)
        day.travel(to: Self.office, speed: 12, every: 5)
        day.travel(to: offset(north: 6000, east: 6000), speed: 12, recorded: false)  // 6 minutes unrecorded
        day.travel(to: offset(north: 9000, east: 9000), speed: 12, every: 5)
        day.stay(for: 1200)
        let (emitted, open) = Self.run(observed(day.fixes, outlierRate: 0.05, seed: 9))
        #expect(Self.stays(emitted).count == 1)
        #expect(Self.trips(emitted).count == 1)
        #expect(Self.stays(open).count == 1)
    }

    @Test func aLongSilenceAtAPlaceIsOneStay() throws {
        var day = SimulatedDay(at: Self.cafe)
        day.stay(for: 1200, every: 30)
        day.silence(for: 5 * 3600)
        day.stay(for: 1200, every: 30)
        day.travel(to: Self.office, speed: 5)
        let (emitted, _) = Self.run(observed(day.fixes, seed: 3))
        let stays = Self.stays(emitted)
        try #require(stays.count == 1)
        #expect(abs(stays[0].duration - (5 * 3600 + 2400 - 30)) < 120)
    }

    /// 500 km in an hour with fixes only at both ends: through the default gate (whose 60 m/s
    /// bound drops the fixes at the far end until the average since the last one falls to it)
    /// and through an airborne one.
    @Test(arguments: [ValidationGate(activityType: .other), ValidationGate(activityType: .airborne)])
    func aFlight(gate: ValidationGate) throws {
        var day = SimulatedDay(at: Self.home)
        day.stay(for: 1800, every: 30)
        day.travel(to: Geodesic.destination(from: Self.home, azimuth: 80, distance: 500_000), speed: 500_000 / 3600, recorded: false)
        day.stay(for: 3 * 3600, every: 30)
        let (emitted, open) = Self.run(observed(day.fixes, outlierRate: 0, seed: 4), TimelineSegmenter(gate: gate))
        let trips = Self.trips(emitted)
        try #require(trips.count == 1)
        #expect(trips[0].mode == .flight)
        #expect(abs(trips[0].distance - 500_000) < 1000)
        #expect(Self.stays(emitted).count == 1 && Self.stays(open).count == 1)
    }

    @Test func theSameFixesGiveTheSameSegments() {
        let fixes = observed(Self.day().truth, seed: 11)
        let first = Self.run(fixes)
        let second = Self.run(fixes)
        #expect(first.emitted == second.emitted && first.open == second.open)
    }

    @Test func badFixesAreDroppedAndShortInputsGiveNothing() {
        var segmenter = TimelineSegmenter()
        #expect(segmenter.open.isEmpty)
        #expect(segmenter.process(Fix(time: nil, coordinate: Self.home)).isEmpty)
        #expect(segmenter.process(Fix(time: startTime, coordinate: Coordinate(latitude: 91, longitude: 0))).isEmpty)
        #expect(segmenter.process(Fix(time: startTime, coordinate: Self.home)).isEmpty)
        #expect(segmenter.process(Fix(time: startTime, coordinate: Self.home)).isEmpty)  // duplicate
        #expect(segmenter.open.isEmpty)  // one fix is neither a trip nor a stay
        #expect(segmenter.accepted == 1)
        #expect(segmenter.dropped == [.noTime: 1, .invalidCoordinate: 1, .duplicate: 1])
        let fresh = TimelineSegmenter(resumingAfter: Fix(time: nil, coordinate: Self.home))
        #expect(fresh.open.isEmpty && fresh.accepted == 0)
    }
}
