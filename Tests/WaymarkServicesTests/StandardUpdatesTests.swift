import Testing
import WaymarkCore
@testable import WaymarkServices

/// Hand-made tracks for standard-updates tests: fixes at metre offsets north of an origin
/// (built with `Geodesic.destination`), at whole seconds after a start time.
enum StandardTrack {
    static let origin = Coordinate(latitude: 52.5, longitude: 13.4)
    static let start = Timestamp(secondsSince1970: 1_700_000_000)

    /// A fix `metres` north of the origin (south when negative), `seconds` after the start.
    static func fix(_ metres: Double, at seconds: Double, accuracy: Double? = nil, speed: Double? = nil) -> Fix {
        let coordinate =
            metres >= 0
            ? Geodesic.destination(from: origin, azimuth: 0, distance: metres)
            : Geodesic.destination(from: origin, azimuth: 180, distance: -metres)
        return Fix(
            time: start.adding(seconds: seconds), coordinate: coordinate,
            horizontalAccuracy: accuracy, speed: speed)
    }

    /// Every record, each as `"kind t"` (seconds after the start), with `" bN"` for a batch
    /// and `" @i"` for the index of the fix whose processing emitted it (`@end` for `finish()`).
    static func run(_ configuration: StandardUpdates.Configuration, _ fixes: [Fix]) -> [String] {
        var service = StandardUpdates(configuration: configuration)
        var out: [String] = []
        for (index, fix) in fixes.enumerated() {
            out += service.process(fix).map { describe($0) + " @\(index)" }
        }
        out += service.finish().map { describe($0) + " @end" }
        return out
    }

    static func describe(_ record: LocationRecord) -> String {
        var text = "\(record.kind.rawValue) \(JSONObjectWriter.number(record.time.seconds(since: start)))"
        if let batch = record.batch { text += " b\(batch)" }
        return text
    }

    /// Records without the `@i` suffix.
    static func kinds(_ configuration: StandardUpdates.Configuration, _ fixes: [Fix]) -> [String] {
        run(configuration, fixes).map { String($0.prefix(upTo: $0.lastIndex(of: "@")!).dropLast()) }
    }
}

@Suite struct StandardUpdatesTests {
    @Test(arguments: [
        ("best-for-navigation", DesiredAccuracy.bestForNavigation), ("best", .best), ("10", .tenMeters),
        ("100", .hundredMeters), ("1000", .kilometer), ("3000", .threeKilometers),
    ])
    func parsesDesiredAccuracy(argument: String, expected: DesiredAccuracy) {
        #expect(DesiredAccuracy(argument: argument) == expected)
        #expect(expected.argument == argument)
    }

    @Test(arguments: ["", "Best", "5", "10m", "-1", "30", "best_for_navigation"])
    func rejectsOtherAccuracyArguments(argument: String) {
        #expect(DesiredAccuracy(argument: argument) == nil)
    }

    @Test func rawValuesAreCoreLocations() {
        #expect(DesiredAccuracy.allCases.map(\.rawValue) == [-2, -1, 10, 100, 1000, 3000])
    }

    /// A fix exactly at the limit is delivered; just over it is not; no accuracy is fine.
    @Test(arguments: [
        (DesiredAccuracy.bestForNavigation, 5.0, true), (.bestForNavigation, 5.01, false),
        (.best, 10, true), (.best, 10.01, false),
        (.tenMeters, 10, true), (.tenMeters, 10.5, false),
        (.hundredMeters, 100, true), (.hundredMeters, 100.1, false),
        (.kilometer, 1000, true), (.kilometer, 1000.1, false),
        (.threeKilometers, 3000, true), (.threeKilometers, 3000.5, false),
        (.bestForNavigation, nil, true), (.threeKilometers, nil, true),
    ] as [(DesiredAccuracy, Double?, Bool)])
    func accuracyFilterEdges(desired: DesiredAccuracy, accuracy: Double?, delivered: Bool) {
        let records = StandardTrack.kinds(
            .init(desiredAccuracy: desired), [StandardTrack.fix(0, at: 0, accuracy: accuracy)])
        #expect(records == (delivered ? ["location 0"] : []))
    }

    /// A rejected fix does not count as delivered: the next good fix is still the first.
    @Test func rejectedFixIsNotTheFirstDelivered() {
        let records = StandardTrack.kinds(
            .init(desiredAccuracy: .tenMeters, distanceFilter: 50),
            [StandardTrack.fix(0, at: 0, accuracy: 30), StandardTrack.fix(10, at: 1, accuracy: 5)])
        #expect(records == ["location 1"])
    }

    /// Distance is measured from the last *delivered* fix: a slow drift in 10 m steps with a
    /// 50 m filter delivers every 5th fix (measuring from the last fix would deliver none after
    /// the first).
    @Test(arguments: [
        (50.0, 10.0, 21, [0, 5, 10, 15, 20]),
        (25, 10, 10, [0, 3, 6, 9]),
        (10, 10, 4, [0, 1, 2, 3]),
        (100, 30, 9, [0, 4, 8]),
    ] as [(Double?, Double, Int, [Int])])
    func distanceFilterFromLastDelivered(filter: Double?, step: Double, count: Int, delivered: [Int]) {
        let fixes = (0..<count).map { StandardTrack.fix(Double($0) * step, at: Double($0) * 10) }
        #expect(StandardTrack.kinds(.init(distanceFilter: filter), fixes) == delivered.map { "location \($0 * 10)" })
    }

    @Test func noDistanceFilterDeliversEveryFix() {
        let fixes = (0..<6).map { StandardTrack.fix(0, at: Double($0)) }
        #expect(StandardTrack.kinds(.init(), fixes) == (0..<6).map { "location \($0)" })
    }

    /// Going back towards the last delivered fix does not count as distance travelled.
    @Test func distanceFilterIgnoresReturnTrips() {
        let fixes = [0, 40, 0, -40, 60].enumerated().map { StandardTrack.fix(Double($0.element), at: Double($0.offset)) }
        #expect(StandardTrack.kinds(.init(distanceFilter: 50), fixes) == ["location 0", "location 4"])
    }

    @Test(arguments: [
        (Double?.some(4.5), Double?.some(1.25), #","horizontalAccuracy":4.5,"speed":1.25}"#),
        (3, nil, #","horizontalAccuracy":3}"#),
        (nil, 2, #","speed":2}"#),
        (nil, nil, #","longitude":13.4}"#),
    ])
    func locationFields(accuracy: Double?, speed: Double?, ending: String) throws {
        var service = StandardUpdates()
        let fix = Fix(
            time: StandardTrack.start, coordinate: StandardTrack.origin, horizontalAccuracy: accuracy, speed: speed)
        let record = try #require(service.process(fix).first)
        #expect(record.kind == .location)
        #expect(record.json.hasSuffix(ending))
    }

    /// Altitude, vertical accuracy and course come with the fix when it has them (issue 37).
    @Test func locationCarriesAltitudeVerticalAccuracyAndCourse() throws {
        var service = StandardUpdates()
        let fix = Fix(
            time: StandardTrack.start, coordinate: StandardTrack.origin, altitude: 1_234.5, horizontalAccuracy: 4,
            verticalAccuracy: 6.5, speed: 1.25, course: 271)
        let record = try #require(service.process(fix).first)
        #expect(record.json.hasSuffix(#","horizontalAccuracy":4,"altitude":1234.5,"verticalAccuracy":6.5,"speed":1.25,"course":271}"#), "\(record.json)")
        #expect(record.coarsened().fieldNames == ["speed", "course"])
    }
}
