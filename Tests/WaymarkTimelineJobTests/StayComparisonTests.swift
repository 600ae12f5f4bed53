import Testing
import WaymarkCore
import WaymarkServices
import WaymarkStore
import WaymarkTimelineJob

/// `StayComparison`: the matching rule of `waymark timeline --compare` and its figures.
@Suite struct StayComparisonTests {
    static let home = Coordinate(latitude: 52.4006, longitude: 13.0385)
    static let office = Coordinate(latitude: 52.3929, longitude: 13.1195)

    static func time(_ clock: String) -> Timestamp { Timestamp(rfc3339: "2026-06-01T\(clock)Z")! }

    static func stay(_ arrival: String, _ departure: String, at centre: Coordinate, metresNorth: Double = 0) -> TimelineStay {
        TimelineStay(
            arrival: time(arrival), departure: time(departure),
            centre: Coordinate(latitude: centre.latitude + metresNorth / 111_195, longitude: centre.longitude), uncertainty: 30, fixCount: 10)
    }

    static func reported(_ arrival: String, _ departure: String, at centre: Coordinate?, _ name: String) -> ReportedStay {
        ReportedStay(arrival: time(arrival), departure: time(departure), centre: centre, name: name)
    }

    @Test func matchingStaysGiveTheirTimeErrors() throws {
        let comparison = StayComparison(
            stays: [
                Self.stay("00:00:00", "05:56:10", at: Self.home, metresNorth: 20),
                Self.stay("06:15:00", "10:05:40", at: Self.office, metresNorth: -35),
                Self.stay("10:30:00", "11:00:00", at: Self.home),
            ],
            reported: [
                Self.reported("00:00:00", "05:55:00", at: Self.home, "Home"),
                Self.reported("06:16:00", "10:05:00", at: Self.office, "Office"),
                Self.reported("10:31:30", "11:00:00", at: Self.home, "Home"),
            ])
        #expect(comparison.matches.count == 3)
        #expect(comparison.precision == 1 && comparison.recall == 1 && comparison.f1 == 1)
        #expect(comparison.matches.map(\.arrivalDifference) == [0, -60, -90])
        #expect(comparison.matches.map(\.departureDifference) == [70, 40, 0])
        #expect(comparison.medianArrivalError == 60)
        #expect(comparison.medianDepartureError == 40)
        let distance = try #require(comparison.matches[1].distance)
        #expect(abs(distance - 35) < 0.5)
        #expect(comparison.unmatchedStays.isEmpty && comparison.unmatchedReported.isEmpty)
    }

    /// A stay Waymark split in two (an outlier in the middle) matches once, by the longer half;
    /// the other half is Waymark's extra stay. One reported visit Waymark missed is listed.
    @Test func aSplitStayMatchesOnceAndAMissedVisitIsListed() {
        let comparison = StayComparison(
            stays: [
                Self.stay("06:15:00", "08:00:00", at: Self.office),
                Self.stay("08:02:00", "10:05:00", at: Self.office),
            ],
            reported: [
                Self.reported("06:15:00", "10:05:00", at: Self.office, "Office"),
                Self.reported("10:15:00", "10:20:00", at: Self.home, "Bakery"),
            ])
        #expect(comparison.matches.map(\.stay.arrival) == [Self.time("08:02:00")])
        #expect(comparison.unmatchedStays.map(\.arrival) == [Self.time("06:15:00")])
        #expect(comparison.unmatchedReported.map(\.name) == ["Bakery"])
        #expect(comparison.precision == 0.5 && comparison.recall == 0.5 && comparison.f1 == 0.5)
    }

    /// Overlapping in time is not enough: the centres must be within 250 m. A reported visit
    /// without a position matches on time alone. Intervals that only touch do not overlap.
    @Test func farAwayOrMerelyTouchingStaysDoNotMatch() {
        let far = StayComparison(
            stays: [Self.stay("06:15:00", "10:05:00", at: Self.office, metresNorth: 260)],
            reported: [Self.reported("06:15:00", "10:05:00", at: Self.office, "Office")])
        #expect(far.matches.isEmpty && far.f1 == 0)
        let near = StayComparison(
            stays: [Self.stay("06:15:00", "10:05:00", at: Self.office, metresNorth: 240)],
            reported: [Self.reported("06:15:00", "10:05:00", at: Self.office, "Office")])
        #expect(near.matches.count == 1)
        let unplaced = StayComparison(
            stays: [Self.stay("06:15:00", "10:05:00", at: Self.office)], reported: [Self.reported("09:00:00", "12:00:00", at: nil, "Somewhere")])
        #expect(unplaced.matches.first?.distance == nil && unplaced.matches.count == 1)
        let touching = StayComparison(
            stays: [Self.stay("06:15:00", "10:05:00", at: Self.office)], reported: [Self.reported("10:05:00", "12:00:00", at: Self.office, "Office")])
        #expect(touching.matches.isEmpty)
    }

    /// One long reported visit overlapping two stays takes the one it shares most time with.
    @Test func eachSideMatchesAtMostOnceByGreatestOverlap() {
        let comparison = StayComparison(
            stays: [Self.stay("06:00:00", "07:00:00", at: Self.office), Self.stay("07:10:00", "09:00:00", at: Self.office)],
            reported: [Self.reported("06:00:00", "09:00:00", at: Self.office, "Office"), Self.reported("06:05:00", "06:55:00", at: Self.office, "Desk")])
        #expect(comparison.matches.map(\.reported.name) == ["Desk", "Office"])
        #expect(comparison.matches.map(\.overlap) == [3_000, 6_600])
    }

    /// The open stay has not departed: its departure is left out of the departure error.
    @Test func theOpenStayCountsForArrivalOnly() {
        let comparison = StayComparison(
            stays: [Self.stay("06:00:00", "07:00:00", at: Self.office), Self.stay("07:30:00", "08:00:00", at: Self.home)],
            reported: [Self.reported("06:01:00", "07:02:00", at: Self.office, "Office"), Self.reported("07:31:00", "23:59:00", at: Self.home, "Home")],
            openStay: true)
        #expect(comparison.matches.last?.departureDifference == nil)
        #expect(comparison.medianDepartureError == 120)
        #expect(comparison.medianArrivalError == 60)
        #expect(comparison.lines(timeZone: "Europe/Berlin").contains { $0.hasSuffix("(arrival −1 min 00 s, open, 0 m apart)") })
    }

    @Test func nothingToCompareHasNoFigures() {
        let comparison = StayComparison(stays: [], reported: [])
        #expect(comparison.precision == nil && comparison.recall == nil && comparison.f1 == nil)
        #expect(comparison.medianArrivalError == nil && comparison.medianDepartureError == nil)
        #expect(comparison.lines(timeZone: "UTC")[1] == "precision –  recall –  F1 –")
    }

    /// The text and JSON say the figures and list both sides' unmatched stays.
    @Test func textAndJSONListTheUnmatched() throws {
        let comparison = StayComparison(
            stays: [Self.stay("06:15:00", "10:05:00", at: Self.office), Self.stay("11:00:00", "11:20:00", at: Self.home)],
            reported: [Self.reported("06:17:05", "10:04:00", at: Self.office, "Office"), Self.reported("12:00:00", "12:30:00", at: Self.home, "Gym")])
        let lines = comparison.lines(timeZone: "Europe/Berlin", labels: [Self.time("06:15:00"): "Office, Potsdam"])
        #expect(
            lines == [
                "Waymark's stays: 2; reported visits: 2; matched: 1 (times in Europe/Berlin)",
                "precision 0.50  recall 0.50  F1 0.50",
                "median arrival error 2 min 05 s, median departure error 1 min 00 s",
                "matched:",
                "  Mon 1 Jun 08:15–12:05  Office, Potsdam = reported Mon 1 Jun 08:17–12:04  Office (arrival −2 min 05 s, departure +1 min 00 s, 0 m apart)",
                "Waymark's stays not reported:",
                "  Mon 1 Jun 13:00–13:20  52.40060, 13.03850",
                "reported visits Waymark did not find:",
                "  Mon 1 Jun 14:00–14:30  Gym",
            ])
        let json = comparison.json(device: "phone", from: Self.time("00:00:00"), to: Self.time("23:00:00"))
        #expect(json.hasPrefix(#"{"device":"phone","from":"2026-06-01T00:00:00Z","to":"2026-06-01T23:00:00Z","maximumDistance":250,"stays":2,"reported":2,"matched":1,"precision":0.5,"recall":0.5,"f1":0.5,"medianArrivalError":125,"medianDepartureError":60,"matches":[{"arrival":"2026-06-01T06:15:00Z""#), "\(json)")
        #expect(json.hasSuffix(#""unmatchedReported":[{"arrival":"2026-06-01T12:00:00Z","departure":"2026-06-01T12:30:00Z","latitude":52.4006,"longitude":13.0385,"name":"Gym"}]}"#), "\(json)")
    }

    /// A stored `reportedVisit` (as `waymark import` writes it) reads back as a reported stay;
    /// other kinds are not one; a visit without an end lasts an instant.
    @Test func storedReportedVisitsReadBack() {
        let visit = StoredEvent(
            time: Self.time("06:16:00"), kind: .reportedVisit, coordinate: Self.office,
            record: #"{"kind":"reportedVisit","time":"2026-06-01T06:16:00Z","end":"2026-06-01T10:05:00Z","latitude":52.3929,"longitude":13.1195,"name":"Office"}"#)
        #expect(ReportedStay(visit) == Self.reported("06:16:00", "10:05:00", at: Self.office, "Office"))
        let endless = StoredEvent(
            time: Self.time("06:16:00"), kind: .reportedVisit, coordinate: nil, record: #"{"kind":"reportedVisit","time":"2026-06-01T06:16:00Z"}"#)
        #expect(ReportedStay(endless) == ReportedStay(arrival: Self.time("06:16:00"), departure: Self.time("06:16:00"), centre: nil, name: nil))
        let activity = StoredEvent(time: Self.time("06:16:00"), kind: .reportedActivity, record: #"{"kind":"reportedActivity"}"#)
        #expect(ReportedStay(activity) == nil)
    }
}
