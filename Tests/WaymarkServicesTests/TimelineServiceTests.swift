import Testing
import WaymarkCore
import WaymarkServices
import WaymarkTestSupport

/// The `timeline` service (docs/timeline/events.md): the segmenter's finished stays and trips as
/// `stay`/`trip` records, their JSON, and a restart that owes one.
@Suite struct TimelineServiceTests {
    static let arrival = Timestamp(rfc3339: "2026-05-02T06:00:00Z")!
    static let departure = Timestamp(rfc3339: "2026-05-02T08:12:00Z")!
    static let reached = Timestamp(rfc3339: "2026-05-02T08:40:30Z")!

    static let stay = TimelineStay(
        arrival: arrival, departure: departure, centre: Coordinate(latitude: 52.4, longitude: 13.06), uncertainty: 23.456, fixCount: 120)
    static let trip = TimelineTrip(
        start: departure, end: reached, from: Coordinate(latitude: 52.4, longitude: 13.06), to: Coordinate(latitude: 52.39, longitude: 13.1),
        distance: 6400.123, movingTime: 1500, maxSpeed: 8.104, averageSpeed: 3.8095, elevationGain: 42, mode: .cycling, fixCount: 1600)

    @Test func aStayRecordIsStampedWithItsDepartureAtItsCentre() {
        #expect(LocationRecord(segment: .stay(Self.stay)).json == """
            {"kind":"stay","time":"2026-05-02T08:12:00Z","latitude":52.4,"longitude":13.06,"arrival":"2026-05-02T06:00:00Z",\
            "departure":"2026-05-02T08:12:00Z","uncertainty":23.46,"fixes":120}
            """)
    }

    @Test func aTripRecordIsStampedWithItsEndWhereItArrived() {
        #expect(LocationRecord(segment: .trip(Self.trip)).json == """
            {"kind":"trip","time":"2026-05-02T08:40:30Z","latitude":52.39,"longitude":13.1,"start":"2026-05-02T08:12:00Z",\
            "end":"2026-05-02T08:40:30Z","from":{"latitude":52.4,"longitude":13.06},"distance":6400.12,"duration":1710,\
            "movingTime":1500,"maxSpeed":8.1,"averageSpeed":3.81,"elevationGain":42,"mode":"cycling","fixes":1600}
            """)
    }

    @Test func aTripWithoutAltitudesHasNoElevationGainAndCarriesItsSubscription() {
        var trip = Self.trip
        trip.elevationGain = nil
        trip.mode = .unknown
        var record = LocationRecord(trip: trip)
        record.subscription = "day"
        #expect(record.fieldNames == [
            "start", "end", "from", "distance", "duration", "movingTime", "maxSpeed", "averageSpeed", "mode", "fixes", "subscription",
        ])
        #expect(record.json.hasSuffix(#""mode":"unknown","fixes":1600,"subscription":"day"}"#))
    }

    /// Approximate authorization: the trip's start is snapped to its ≈ 3 km cell like its end.
    @Test func anApproximateTripHidesWhereItStarted() {
        let coarse = LocationRecord(trip: Self.trip).coarsened()
        #expect(coarse.trip?.from == ApproximateLocation.coarsen(Self.trip.from))
        #expect(coarse.trip?.to == coarse.coordinate && coarse.coordinate == ApproximateLocation.coarsen(Self.trip.to))
        #expect(coarse.field("from") != LocationRecord(trip: Self.trip).field("from"))
        let stay = LocationRecord(stay: Self.stay).coarsened()
        #expect(stay.stay?.centre == stay.coordinate)
    }

    @Test func theKindsAreEventKinds() {
        #expect(EventKind(rawValue: LocationRecord.Kind.stay.rawValue) == .stay)
        #expect(EventKind(rawValue: LocationRecord.Kind.trip.rawValue) == .trip)
    }

    /// The service reports exactly the segmenter's finished segments, at the fix that finished
    /// them, and nothing of the open one at the end.
    @Test func theServiceReportsTheSegmentersSegments() {
        let day = NoisyDay().fixes
        var segmenter = TimelineSegmenter()
        var service = TimelineService()
        var expected: [LocationRecord] = []
        var reported: [LocationRecord] = []
        for fix in day {
            expected += segmenter.process(fix).map(LocationRecord.init(segment:))
            reported += service.process(fix)
        }
        reported += service.finish()
        #expect(reported == expected)
        #expect(reported.filter { $0.kind == .stay }.count >= 4, "home, café, office, the stop: \(reported.map(\.json))")
        #expect(reported.filter { $0.kind == .trip }.count >= 4, "\(reported.map(\.json))")
        #expect(zip(reported, reported.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    /// A daemon stopped at `cut` and started again: the records before, plus those the resumed
    /// service reports after replaying the stored fixes since its mark, are the uninterrupted
    /// run's — the segment owed at the restart once, neither lost nor repeated.
    @Test(arguments: [
        "2026-06-01T05:04:00Z",  // before any stay
        "2026-06-01T06:40:00Z",  // on the walk
        "2026-06-01T07:10:00Z",  // at the café
        "2026-06-01T07:35:00Z",  // on the ride
        "2026-06-01T09:05:00Z",  // in the silence at the office
        "2026-06-01T10:57:00Z",  // on the drive
        "2026-06-01T11:20:00Z",  // at the stop
    ])
    func aRestartReportsWhatWasOwedOnce(_ cut: String) throws {
        let day = NoisyDay().fixes
        let uninterrupted = run(TimelineService(), day)
        let at = try #require(Timestamp(rfc3339: cut))
        let (before, after) = (day.filter { $0.time! < at }, day.filter { $0.time! >= at })
        var first = TimelineService()
        let reported = before.flatMap { first.process($0) }
        let mark = try #require(first.mark)
        #expect(mark.kind == .timeline)
        var resumed = TimelineService()
        resumed.resume(from: [mark], replaying: before.filter { $0.time! >= [mark].replayFrom! })
        let rest = after.flatMap { resumed.process($0) } + resumed.finish()
        #expect(reported + rest == uninterrupted, "cut \(cut)")
    }

    /// Retention removed the fixes the mark points at: the service starts afresh and reports no
    /// trip it cannot measure from its start.
    @Test func fixesThatDoNotStartAtTheMarkLeaveTheServiceFresh() throws {
        let day = NoisyDay().fixes
        var first = TimelineService()
        for fix in day.prefix(400) { _ = first.process(fix) }
        let mark = try #require(first.mark)
        var resumed = TimelineService()
        resumed.resume(from: [mark], replaying: Array(day.prefix(400).filter { $0.time! > mark.time }))
        #expect(resumed.mark == nil)
    }

    @Test func theTimelineMarkJoinsTheReplayStart() {
        let early = ServiceMark(kind: .timeline, time: startTime, coordinate: origin)
        let late = ServiceMark(kind: .stay, time: startTime.adding(seconds: 60), coordinate: origin)
        #expect([late, early].replayFrom == startTime)
        #expect([late].replayFrom == late.time)
    }
}
