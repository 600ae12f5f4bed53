import Testing
import WaymarkCore
import WaymarkSources

/// OsmAnd-protocol requests as real clients send them: OsmAnd's default URL template,
/// GPSLogger's custom URL, Traccar Client's form body.
@Suite struct OsmAndDecoderTests {
    static let decoder = OsmAndDecoder()
    static let knot = 1852.0 / 3600.0

    @Test func osmAndDefaultTemplate() throws {
        // OsmAnd fills `timestamp` with System.currentTimeMillis() and its floats with Java's toString.
        let query = "id=pixel7&lat=52.52&lon=13.405&timestamp=1714557600123&hdop=12.0&altitude=41.0&speed=1.5&bearing=270.0"
        let report = try Self.decoder.decode(query: query)
        #expect(report.deviceID == "pixel7")
        #expect(report.fix == Fix(
            time: Timestamp(rfc3339: "2024-05-01T10:00:00.123Z"), coordinate: Coordinate(latitude: 52.52, longitude: 13.405),
            altitude: 41, hdop: 12, speed: 1.5 * Self.knot, course: 270))
        #expect(report.isValid)
        #expect(report.batteryLevel == nil)
        #expect(report.isCharging == nil)
        #expect(report.driverUniqueID == nil)
        #expect(try Self.decoder.decode(query: "?" + query) == report)
    }

    @Test func javaFloatFormattingWithExponents() throws {
        let report = try Self.decoder.decode(query: "id=a&lat=1.0E-5&lon=-2.5E1&timestamp=1714557600&speed=1.0E-4")
        #expect(report.fix.coordinate == Coordinate(latitude: 0.00001, longitude: -25))
        #expect(report.fix.speed == 0.0001 * Self.knot)
    }

    @Test func gpsLoggerURLWithISOTime() throws {
        let query = "deviceid=gpslogger-j&lat=48.858093&lon=2.294694&timestamp=2024-05-01T10%3A00%3A00.000Z"
            + "&altitude=35.2&acc=8.5&speed=0.0&heading=181.5&batt=77&charge=false&provider=gps&sat=9"
        let report = try Self.decoder.decode(query: query)
        #expect(report.deviceID == "gpslogger-j")
        #expect(report.fix == Fix(
            time: Timestamp(rfc3339: "2024-05-01T10:00:00Z"), coordinate: Coordinate(latitude: 48.858093, longitude: 2.294694),
            altitude: 35.2, horizontalAccuracy: 8.5, speed: 0, course: 181.5))
        #expect(report.batteryLevel == 77)
        #expect(report.isCharging == false)
    }

    @Test func traccarClientFormBodyWithMilliseconds() throws {
        let body = "id=865000000000001&timestamp=1714557600000&lat=-33.8568&lon=151.2153&speed=10.0&bearing=90.0"
            + "&altitude=58.0&accuracy=5.0&batt=85.5&charge=true&driverUniqueId=driver+42%2Fb&valid=true"
        let report = try Self.decoder.decode(formBody: Array(body.utf8))
        #expect(report == OsmAndReport(
            deviceID: "865000000000001",
            fix: Fix(
                time: Timestamp(rfc3339: "2024-05-01T10:00:00Z"),
                coordinate: Coordinate(latitude: -33.8568, longitude: 151.2153), altitude: 58, horizontalAccuracy: 5,
                speed: 10 * Self.knot, course: 90),
            isValid: true, batteryLevel: 85.5, isCharging: true, driverUniqueID: "driver 42/b"))
    }

    @Test(arguments: ["location=52.52%2C13.405", "location=52.52,13.405", "location=52.52,+13.405"])
    func locationParameterGivesThePosition(parameter: String) throws {
        let report = try Self.decoder.decode(query: "id=a&timestamp=1714557600&" + parameter)
        #expect(report.fix.coordinate == Coordinate(latitude: 52.52, longitude: 13.405))
    }

    @Test(arguments: [("false", false), ("0", false), ("FALSE", false), ("true", true), ("1", true), ("True", true)])
    func invalidReportsAreDecodedAndFlagged(valid: String, expected: Bool) throws {
        let report = try Self.decoder.decode(query: "id=a&lat=1&lon=2&timestamp=1714557600&valid=" + valid)
        #expect(report.isValid == expected)
        #expect(report.fix.coordinate == Coordinate(latitude: 1, longitude: 2))
    }

    @Test func speedInMetresPerSecondWhenTheClientSaysSo() throws {
        let decoder = OsmAndDecoder(speedUnit: .metresPerSecond)
        #expect(try decoder.decode(query: "id=a&lat=1&lon=2&timestamp=1714557600&speed=3.5").fix.speed == 3.5)
        #expect(try Self.decoder.decode(query: "id=a&lat=1&lon=2&timestamp=1714557600&speed=3.5").fix.speed == 3.5 * Self.knot)
    }

    @Test func emptyOptionalValuesAndUnknownParametersAreIgnored() throws {
        let report = try Self.decoder.decode(
            query: "id=a&lat=1&lon=2&timestamp=1714557600&altitude=&speed=&bearing=&batt=&charge=&driverUniqueId=&cell=262,1,2,3&&wifi=aa-bb,-60&=x")
        #expect(report.fix == Fix(time: Timestamp(secondsSince1970: 1_714_557_600), coordinate: Coordinate(latitude: 1, longitude: 2)))
        #expect(report.batteryLevel == nil)
        #expect(report.isCharging == nil)
        #expect(report.driverUniqueID == nil)
    }

    @Test func percentDecodingAppliesToNamesAndValues() throws {
        let report = try Self.decoder.decode(query: "%69d=J%C3%BCrgen%27s+phone&l%61t=1&lon=2&timestamp=1714557600")
        #expect(report.deviceID == "Jürgen's phone")
    }

    /// The numeric rule: above 10^11 is milliseconds. Seconds past 2262 do not fit a Timestamp.
    @Test(arguments: [
        ("0", Timestamp(nanosecondsSince1970: 0)),
        ("1714557600", Timestamp(nanosecondsSince1970: 1_714_557_600_000_000_000)),
        ("1714557600.123456789", Timestamp(nanosecondsSince1970: 1_714_557_600_123_456_789)),
        ("9223372036", Timestamp(nanosecondsSince1970: 9_223_372_036_000_000_000)),
        ("100000000001", Timestamp(nanosecondsSince1970: 100_000_000_001_000_000)),
        ("1714557600123", Timestamp(nanosecondsSince1970: 1_714_557_600_123_000_000)),
        ("1714557600123.5", Timestamp(nanosecondsSince1970: 1_714_557_600_123_500_000)),
        ("9223372036854", Timestamp(nanosecondsSince1970: 9_223_372_036_854_000_000)),
    ])
    func numericTimestamps(text: String, expected: Timestamp) throws {
        #expect(try Self.decoder.decode(query: "id=a&lat=1&lon=2&timestamp=" + text).fix.time == expected)
    }

    /// ISO 8601 in the forms clients write, as they arrive in a query string.
    @Test(arguments: [
        "2024-05-01T10:00:00Z",
        "2024-05-01T10:00:00z",
        "2024-05-01t10:00:00Z",
        "2024-05-01T10:00:00.000Z",
        "2024-05-01T10:00:00",
        "2024-05-01+10:00:00",
        "2024-05-01%2010:00:00",
        "2024-05-01T12:00:00%2B02:00",
        "2024-05-01T12:00:00%2B0200",
        "2024-05-01T12:00:00%2B02",
        "2024-05-01T05:00:00-05:00",
        "2024-05-01T05:00:00-0500",
        "2024-05-01T05:00:00.000-05",
        "2024-05-01T10%3A00%3A00Z",
    ])
    func isoTimestamps(text: String) throws {
        let report = try Self.decoder.decode(query: "id=a&lat=1&lon=2&timestamp=" + text)
        #expect(report.fix.time == Timestamp(rfc3339: "2024-05-01T10:00:00Z"))
    }

    @Test func fractionalISOSecondsAreKept() throws {
        let report = try Self.decoder.decode(query: "id=a&lat=1&lon=2&timestamp=2024-05-01T10:00:00.250%2B00:00")
        #expect(report.fix.time == Timestamp(nanosecondsSince1970: 1_714_557_600_250_000_000))
    }

    @Test(arguments: [("-90", "-180"), ("90", "180"), ("0", "0")])
    func coordinateBoundsAreInclusive(lat: String, lon: String) throws {
        let report = try Self.decoder.decode(query: "id=a&timestamp=0&lat=\(lat)&lon=\(lon)")
        #expect(report.fix.coordinate == Coordinate(latitude: Double(lat)!, longitude: Double(lon)!))
    }

    @Test(arguments: [("0", 0.0), ("360", 360.0)])
    func bearingBoundsAreInclusive(bearing: String, expected: Double) throws {
        #expect(try Self.decoder.decode(query: "id=a&timestamp=0&lat=0&lon=0&bearing=" + bearing).fix.course == expected)
    }

    @Test(arguments: [("0", 0.0), ("100", 100.0), ("42.5", 42.5)])
    func batteryBoundsAreInclusive(batt: String, expected: Double) throws {
        #expect(try Self.decoder.decode(query: "id=a&timestamp=0&lat=0&lon=0&batt=" + batt).batteryLevel == expected)
    }
}
