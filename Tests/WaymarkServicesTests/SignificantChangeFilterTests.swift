import Testing
import WaymarkCore
import WaymarkServices

@Suite("SignificantChangeFilter")
struct SignificantChangeFilterTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let fixes: [Fix]
        /// Indices into `fixes` of the fixes delivered.
        let expected: [Int]
        /// Sets the distance threshold to the measured geodesic distance from the first fix to
        /// the last, so the row sits exactly on the bound (a point placed 500 m away measures
        /// 500 m only to a nanometre or so, either side).
        var atMeasuredDistance = false
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "first fix", fixes: [fix(north: 0, at: 0)], expected: [0]),
        Case(
            name: "exactly 500 m and 300 s", fixes: [fix(north: 0, at: 0), fix(north: 500, at: 300)], expected: [0, 1],
            atMeasuredDistance: true),
        Case(name: "500.001 m and 300 s", fixes: [fix(north: 0, at: 0), fix(north: 500.001, at: 300)], expected: [0, 1]),
        Case(name: "499.9 m", fixes: [fix(north: 0, at: 0), fix(north: 499.9, at: 300)], expected: [0]),
        Case(name: "299 s", fixes: [fix(north: 0, at: 0), fix(north: 500, at: 299)], expected: [0]),
        Case(name: "299.999 s", fixes: [fix(north: 0, at: 0), fix(north: 2000, at: 299.999)], expected: [0]),
        Case(name: "far and late", fixes: [fix(north: 0, at: 0), fix(north: -3000, east: 400, at: 900)], expected: [0, 1]),
        Case(
            name: "distance from the last significant location, not the last fix",
            fixes: [
                fix(north: 0, at: 0), fix(north: 200, at: 100), fix(north: 400, at: 200), fix(north: 499, at: 400),
                fix(north: 500, at: 500),
            ],
            expected: [0, 4]),
        Case(
            name: "time from the last significant location, not the last fix",
            fixes: [fix(north: 0, at: 0), fix(north: 600, at: 200), fix(north: 600, at: 299), fix(north: 600, at: 300)],
            expected: [0, 3]),
        Case(
            name: "after a change, measured from the new location",
            fixes: [
                fix(north: 0, at: 0), fix(north: 500, at: 300), fix(north: 900, at: 600), fix(north: 1001, at: 900),
                fix(north: 0, at: 1199), fix(north: 0, at: 1200),
            ],
            expected: [0, 1, 3, 5]),
    ]

    @Test(arguments: cases)
    func rule(_ c: Case) {
        var filter = SignificantChangeFilter()
        if c.atMeasuredDistance {
            filter.minimumDistance = Geodesic.distance(c.fixes[0].coordinate, c.fixes[c.fixes.count - 1].coordinate)
            #expect(abs(filter.minimumDistance - 500) < 1e-6)
        }
        let records = run(filter, c.fixes)
        let expected = c.expected.map {
            LocationRecord(kind: .significantChange, time: c.fixes[$0].time!, coordinate: c.fixes[$0].coordinate)
        }
        #expect(records == expected)
    }

    @Test func thresholdsAreConfigurable() {
        let fixes = [fix(north: 0, at: 0), fix(north: 100, at: 60), fix(north: 150, at: 90)]
        let records = run(SignificantChangeFilter(minimumDistance: 100, minimumInterval: 60), fixes)
        #expect(records.map(\.time) == [fixes[0].time!, fixes[1].time!])
    }
}
