import Foundation
import Testing
import WaymarkCore
@testable import WaymarkServices
import WaymarkSources
import WaymarkTestSupport

/// The segmenter on real recorded tracks (`../shared/data/gpx`): the mode each trip is judged,
/// its distance against the track's own length, and stays where the recording stops. Here
/// rather than in WaymarkServicesTests because reading GPX needs WaymarkSources.
@Suite("TimelineSegmenter on recorded GPX tracks")
struct TimelineSegmenterGPXTests {
    /// A track's fixes, in document order.
    static func fixes(_ name: String) throws -> [Fix] {
        var source = try GPXFixSource(path: ProjectPaths.sharedData("gpx/\(name)").path)
        var fixes: [Fix] = []
        while let fix = try source.next() { fixes.append(fix) }
        return fixes
    }

    /// Every segment, the open one included.
    static func segments(_ fixes: [Fix]) -> [TimelineSegment] {
        var segmenter = TimelineSegmenter()
        return fixes.flatMap { segmenter.process($0) } + segmenter.open
    }

    /// Metres along consecutive timed fixes, as a GPX viewer would sum the track.
    static func trackLength(_ fixes: [Fix]) -> Double {
        let timed = fixes.filter { $0.time != nil }
        return zip(timed, timed.dropFirst()).reduce(0) { $0 + Geodesic.distance($1.0.coordinate, $1.1.coordinate) }
    }

    static func stays(_ segments: [TimelineSegment]) -> [TimelineStay] {
        segments.compactMap { if case .stay(let stay) = $0 { stay } else { nil } }
    }

    static func trips(_ segments: [TimelineSegment]) -> [TimelineTrip] {
        segments.compactMap { if case .trip(let trip) = $0 { trip } else { nil } }
    }

    /// Metres the trip measurement gives the whole track, as one trip.
    static func measuredLength(_ fixes: [Fix]) -> Double {
        var gate = ValidationGate()
        let points = fixes.filter { gate.admit($0) == nil }.compactMap(TripPoint.init)
        return TripMeasurement.trip(through: points, silenceThreshold: SilenceRule.standard.threshold).distance
    }

    /// Continuous rides (one trip, no stop of five minutes): cycling, and the distance the
    /// track's own. tcxtest.gpx ("T1_courses", a triathlon's bike course by its name) holds a
    /// median of 31 km/h and at most 63 km/h over 20 s in the Santa Monica Mountains: a fast
    /// road cyclist, not a car, whose speeds there would pass 59 km/h for long stretches.
    @Test(arguments: ["gtrnctr_power.gpx", "bike~gpx.gpx", "tcxtest.gpx"])
    func aContinuousRide(_ name: String) throws {
        let fixes = try Self.fixes(name)
        let segments = Self.segments(fixes)
        let trips = Self.trips(segments)
        try #require(segments.count == 1 && trips.count == 1, "\(segments)")
        #expect(trips[0].mode == .cycling)
        let length = Self.trackLength(fixes)
        #expect(abs(trips[0].distance - length) < 0.005 * length, "\(trips[0].distance) m, the track \(length) m")
        #expect(trips[0].maxSpeed < 20)
        #expect((trips[0].elevationGain ?? 0) > 0)
    }

    /// A day's ride along Big Sur with its stops: a stay at each stop of five minutes or more,
    /// every trip of a kilometre or more cycling, nothing lost from the distance.
    @Test func aRideWithStops() throws {
        let fixes = try Self.fixes("bikeride.gpx")
        let segments = Self.segments(fixes)
        let stays = Self.stays(segments)
        let trips = Self.trips(segments)
        #expect(stays.count >= 10 && stays.allSatisfy { $0.duration >= 300 && $0.uncertainty <= 100 })
        #expect(trips.filter { $0.distance >= 1000 }.allSatisfy { $0.mode == .cycling })
        #expect(trips.reduce(0) { $0 + $1.distance } > 0.9 * Self.trackLength(fixes))
        let length = Self.trackLength(fixes)
        #expect(abs(Self.measuredLength(fixes) - length) < 0.005 * length)
    }

    /// MANIFEST.md calls skytraq-miniHomer2_8.gpx "walking pace", its average over 10.6 h; it is
    /// two rides of half an hour at 15 km/h (moving median 18 km/h) around a stop of 9.6 h.
    @Test func twoRidesAroundALongStop() throws {
        let fixes = try Self.fixes("skytraq-miniHomer2_8.gpx")
        let segments = Self.segments(fixes)
        let trips = Self.trips(segments)
        let stays = Self.stays(segments)
        #expect(trips.map(\.mode) == [.cycling, .cycling])
        try #require(stays.count == 1)
        #expect(stays[0].duration > 9 * 3600)
        let length = Self.trackLength(fixes)
        #expect(abs(Self.measuredLength(fixes) - length) < 0.03 * length, "wander while stopped is left out")
    }

    /// A slow mountain hike: every trip walking; its pauses (and its steepest slow climbs, under
    /// 100 m in five minutes) are stays.
    @Test func aHike() throws {
        let fixes = try Self.fixes("endomondo.gpx")
        let segments = Self.segments(fixes)
        let journeys = Self.trips(segments).filter { $0.fixCount > 2 }
        #expect(journeys.count >= 5 && journeys.allSatisfy { $0.mode == .walking })
        #expect(journeys.allSatisfy { $0.maxSpeed < 6 })
        #expect(Self.stays(segments).count >= 5)
        let length = Self.trackLength(fixes)
        #expect(abs(Self.measuredLength(fixes) - length) < 0.01 * length)
    }
}
