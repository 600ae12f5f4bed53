import Testing
import WaymarkCore
import WaymarkServices

@Suite("VisitDetector")
struct VisitDetectorTests {
    /// A stay at `north` metres: one fix every `step` seconds from `start` to `end` (inclusive),
    /// each displaced by up to `jitter` metres in a fixed pattern.
    static func stay(north: Double, from start: Double, to end: Double, step: Double = 30, jitter: Double = 0) -> [Fix] {
        let pattern: [(Double, Double)] = [(0, 0), (1, 0.5), (-0.7, 1), (0.3, -1), (-1, -0.4)]
        return stride(from: start, through: end, by: step).enumerated().map { i, t in
            let (dn, de) = pattern[i % pattern.count]
            return fix(north: north + dn * jitter, east: de * jitter, at: t)
        }
    }

    struct Expected: Sendable, Equatable {
        let event: String
        /// Seconds after `startTime` of the record's time.
        let time: Double
        let arrival: Double
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let fixes: [Fix]
        let expected: [Expected]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a 299 s stay is no visit", fixes: stay(north: 0, from: 0, to: 299, step: 13), expected: []),
        Case(
            name: "a 299 s stay then leaving is no visit",
            fixes: stay(north: 0, from: 0, to: 299, step: 13) + [fix(north: 1000, at: 320)], expected: []),
        Case(
            name: "arrival at 300 s, stamped with the first fix",
            fixes: [fix(north: 5000, at: -100)] + stay(north: 0, from: 0, to: 300), expected: [.init(event: "arrival", time: 0, arrival: 0)]),
        Case(
            name: "departure stamped with the last fix inside",
            fixes: stay(north: 0, from: 0, to: 600) + [fix(north: 500, at: 630)],
            expected: [.init(event: "arrival", time: 0, arrival: 0), .init(event: "departure", time: 600, arrival: 0)]),
        Case(
            name: "jitter of 40 m inside the radius keeps the stay",
            fixes: stay(north: 0, from: 0, to: 900, step: 10, jitter: 40) + [fix(north: 300, at: 910)],
            expected: [.init(event: "arrival", time: 0, arrival: 0), .init(event: "departure", time: 900, arrival: 0)]),
        Case(
            name: "leaving early restarts the candidate at the leaving fix",
            fixes: stay(north: 0, from: 0, to: 200) + stay(north: 1000, from: 230, to: 530)
                + [fix(north: 2000, at: 560)],
            expected: [.init(event: "arrival", time: 230, arrival: 230), .init(event: "departure", time: 530, arrival: 230)]),
        Case(
            name: "two visits",
            fixes: stay(north: 0, from: 0, to: 300) + stay(north: 1000, from: 400, to: 790) + [fix(north: 0, at: 900)],
            expected: [
                .init(event: "arrival", time: 0, arrival: 0), .init(event: "departure", time: 300, arrival: 0),
                .init(event: "arrival", time: 400, arrival: 400), .init(event: "departure", time: 790, arrival: 400),
            ]),
        // Silences (docs/semantics.md §2.6): more than 300 s without a fix.
        Case(
            name: "a 20-minute silence inside a 25-minute stay is one visit",
            fixes: stay(north: 0, from: 0, to: 60, jitter: 20) + stay(north: 0, from: 1260, to: 1500, jitter: 20)
                + [fix(north: 2000, at: 1530)],
            expected: [.init(event: "arrival", time: 0, arrival: 0), .init(event: "departure", time: 1500, arrival: 0)]),
        Case(
            name: "after a silence a fix within the radius of the last one continues the stay, however far from its start",
            fixes: [fix(north: 0, at: 0), fix(north: 40, at: 30), fix(north: 80, at: 60)] + stay(north: 150, from: 900, to: 1200)
                + [fix(north: 2000, at: 1230)],
            expected: [.init(event: "arrival", time: 0, arrival: 0), .init(event: "departure", time: 1200, arrival: 0)]),
        Case(
            name: "300 s is no silence: a fix outside the stay's radius ends it",
            fixes: [fix(north: 0, at: 0), fix(north: 40, at: 30), fix(north: 80, at: 60)] + stay(north: 150, from: 360, to: 660)
                + [fix(north: 2000, at: 690)],
            expected: [.init(event: "arrival", time: 360, arrival: 360), .init(event: "departure", time: 660, arrival: 360)]),
        Case(
            name: "301 s is a silence: the same fix continues the stay",
            fixes: [fix(north: 0, at: 0), fix(north: 40, at: 30), fix(north: 80, at: 60)] + stay(north: 150, from: 361, to: 661)
                + [fix(north: 2000, at: 691)],
            expected: [.init(event: "arrival", time: 0, arrival: 0), .init(event: "departure", time: 661, arrival: 0)]),
        Case(
            name: "a silence ended 99.5 m from the last fix is a stay",
            fixes: stay(north: 0, from: 0, to: 120) + stay(north: 99.5, from: 900, to: 960) + [fix(north: 2000, at: 990)],
            expected: [.init(event: "arrival", time: 0, arrival: 0), .init(event: "departure", time: 960, arrival: 0)]),
        Case(
            name: "a silence ended 100.5 m from the last fix is a gap, and a short stay on either side no visit",
            fixes: stay(north: 0, from: 0, to: 120) + stay(north: 100.5, from: 900, to: 960) + [fix(north: 2000, at: 990)],
            expected: []),
        Case(
            name: "a gap ends a visit at the last fix before the silence",
            fixes: stay(north: 0, from: 0, to: 600) + stay(north: 500, from: 1800, to: 1900),
            expected: [.init(event: "arrival", time: 0, arrival: 0), .init(event: "departure", time: 600, arrival: 0)]),
        Case(
            name: "moving steadily is no visit",
            fixes: stride(from: 0.0, through: 1800, by: 30).map { fix(north: $0 * 5, at: $0) }, expected: []),
    ]

    @Test(arguments: cases)
    func rule(_ c: Case) {
        let records = run(VisitDetector(), c.fixes)
        #expect(records.allSatisfy { $0.kind == .visit })
        let got = records.map { (event: $0.field("event") ?? "?", time: $0.time.seconds(since: startTime)) }
        #expect(got.map(\.event) == c.expected.map { "\"\($0.event)\"" })
        #expect(got.map(\.time) == c.expected.map(\.time))
        for (record, expected) in zip(records, c.expected) {
            #expect(record.field("arrivalTime") == "\"\(startTime.adding(seconds: expected.arrival).rfc3339)\"")
            if expected.event == "departure" {
                #expect(record.field("departureTime") == "\"\(record.time.rfc3339)\"")
            } else {
                #expect(record.field("departureTime") == nil)
            }
        }
    }

    @Test func arrivalIsEmittedOnlyOnceTheStayLasts300Seconds() {
        var detector = VisitDetector()
        let fixes = Self.stay(north: 0, from: 0, to: 330)
        let emittedAt = fixes.indices.filter { !detector.process(fixes[$0]).isEmpty }
        #expect(emittedAt == [10])  // the fix at 300 s
    }

    @Test func centreAndUncertainty() throws {
        // Fixes 0, 20 and 40 m north: centre 20 m north, farthest fix 20 m from it.
        let fixes = [fix(north: 0, at: 0), fix(north: 20, at: 150), fix(north: 40, at: 300), fix(north: 500, at: 400)]
        let records = run(VisitDetector(), fixes)
        try #require(records.count == 2)
        let centre = offset(north: 20)
        for record in records {
            #expect(Geodesic.distance(record.coordinate, centre) < 0.01)
            #expect(record.field("uncertainty") == "20")
        }
        #expect(records[0].fieldNames == ["event", "arrivalTime", "uncertainty"])
        #expect(records[1].fieldNames == ["event", "arrivalTime", "departureTime", "uncertainty"])
    }

    /// The visit spanning a silence reports its centre and uncertainty over all its fixes.
    @Test func aVisitAcrossASilenceIsReportedOnceOverAllItsFixes() throws {
        let fixes = [fix(north: 0, at: 0), fix(north: 40, at: 30), fix(north: 80, at: 60), fix(north: 150, at: 900), fix(north: 2000, at: 930)]
        let records = run(VisitDetector(), fixes)
        try #require(records.count == 2)
        #expect(Geodesic.distance(records[1].coordinate, offset(north: 67.5)) < 0.01)
        #expect(records[1].field("uncertainty") == "82.5")
        #expect(records[1].field("departureTime") == "\"\(startTime.adding(seconds: 900).rfc3339)\"")
    }

    @Test func thresholdsAreConfigurable() {
        let fixes = Self.stay(north: 0, from: 0, to: 60, step: 10, jitter: 15) + [fix(north: 100, at: 70)]
        #expect(run(VisitDetector(), fixes).isEmpty)
        #expect(run(VisitDetector(radius: 30, minimumDuration: 60), fixes).count == 2)
    }
}
