import Testing
import WaymarkSources

/// Issue 48: OsmAnd parameters no phone can report are refused, naming the parameter.
@Suite struct OsmAndNumberBoundsTests {
    static let base = "id=a&lat=1&lon=2&timestamp=1714557600"

    static let bounds: [NumberBound] = [
        NumberBound("accuracy", inside: "1000000", outside: "1e308", "expected a number of metres between 0 and 1000000"),
        NumberBound("acc", inside: "0", outside: "1000001", "expected a number of metres between 0 and 1000000"),
        NumberBound("altitude", inside: "100000", outside: "1e308", "expected a number of metres between -12000 and 100000"),
        NumberBound("altitude", inside: "-12000", outside: "-1e308", "expected a number of metres between -12000 and 100000"),
        NumberBound("speed", inside: "21771", outside: "1e308", "expected a speed in knots between 0 and 21771"),
        NumberBound("hdop", inside: "1000000", outside: "1e308", "expected a number between 0 and 1000000"),
    ]

    @Test("each bound admits its edge and refuses past it, naming the parameter", arguments: bounds)
    func bound(_ bound: NumberBound) throws {
        _ = try OsmAndDecoder().decode(query: "\(Self.base)&\(bound.name)=\(bound.inside)")
        #expect(throws: OsmAndError(code: .outOfRange, field: bound.name, message: "\(bound.message), got \"\(bound.outside)\"")) {
            try OsmAndDecoder().decode(query: "\(Self.base)&\(bound.name)=\(bound.outside)")
        }
    }

    @Test func speedInMetresPerSecondStopsAtEscapeVelocity() throws {
        let decoder = OsmAndDecoder(speedUnit: .metresPerSecond)
        let report = try decoder.decode(query: "\(Self.base)&speed=11200")
        #expect(report.fix.speed == 11200)
        #expect(throws: OsmAndError(code: .outOfRange, field: "speed", message: #"expected a speed in m/s between 0 and 11200, got "11201""#)) {
            try decoder.decode(query: "\(Self.base)&speed=11201")
        }
    }

    /// The last second `Timestamp` holds, with a fraction that would carry it past Int64.
    @Test func anISOTimeAtTheEndOfTimestampIsRefusedNotTrapped() throws {
        #expect(throws: OsmAndError.self) {
            try OsmAndDecoder().decode(query: "id=a&lat=1&lon=2&timestamp=2262-04-11T23:47:16.9Z")
        }
        #expect(throws: OsmAndError.self) {
            try OsmAndDecoder().decode(query: "id=a&lat=1&lon=2&timestamp=9999-12-31T23:59:59Z")
        }
    }
}
