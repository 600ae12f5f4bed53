import Testing
import WaymarkSources

/// Requests the decoder refuses: each names the code, the parameter and the exact message.
@Suite struct OsmAndDecoderErrorTests {
    struct Bad: Sendable, CustomTestStringConvertible {
        var query: String
        var code: OsmAndError.Code
        var field: String
        var message: String
        var testDescription: String { "\(field): \(message)" }

        init(_ query: String, _ code: OsmAndError.Code, _ field: String, _ message: String) {
            self.query = query
            self.code = code
            self.field = field
            self.message = message
        }
    }

    static let base = "id=a&timestamp=1714557600"
    static let here = "lat=1&lon=2"

    static let cases: [Bad] = [
        // The device.
        Bad("lat=1&lon=2&timestamp=1714557600", .missingParameter, "id", "missing (the device identifier; deviceid is accepted too)"),
        Bad("id=a&deviceid=b&\(here)&timestamp=1", .conflictingParameters, "deviceid", "conflicts with id (give the device identifier once)"),
        Bad("id=&\(here)&timestamp=1", .invalidValue, "id", #"expected a device identifier, got """#),
        Bad("deviceid=&\(here)&timestamp=1", .invalidValue, "deviceid", #"expected a device identifier, got """#),
        // The position.
        Bad("\(base)&lon=2", .missingParameter, "lat", "missing (a report needs a position: lat and lon, or location=LAT,LON)"),
        Bad("\(base)&lat=1", .missingParameter, "lon", "missing (a report needs a position: lat and lon, or location=LAT,LON)"),
        Bad("\(base)&lat=abc&lon=2", .invalidValue, "lat", #"expected a number between -90 and 90, got "abc""#),
        Bad("\(base)&lat=&lon=2", .invalidValue, "lat", #"expected a number between -90 and 90, got """#),
        Bad("\(base)&lat=91&lon=2", .outOfRange, "lat", #"expected a number between -90 and 90, got "91""#),
        Bad("\(base)&lat=-90.0001&lon=2", .outOfRange, "lat", #"expected a number between -90 and 90, got "-90.0001""#),
        Bad("\(base)&lat=1&lon=-181", .outOfRange, "lon", #"expected a number between -180 and 180, got "-181""#),
        Bad("\(base)&lat=NaN&lon=2", .invalidValue, "lat", #"expected a number between -90 and 90, got "NaN""#),
        Bad("\(base)&lat=1&lon=Infinity", .invalidValue, "lon", #"expected a number between -180 and 180, got "Infinity""#),
        Bad("\(base)&lat=0x1p3&lon=2", .invalidValue, "lat", #"expected a number between -90 and 90, got "0x1p3""#),
        Bad("\(base)&lat=1e400&lon=2", .invalidValue, "lat", #"expected a number between -90 and 90, got "1e400""#),
        Bad("\(base)&lat=52%2C5&lon=2", .invalidValue, "lat", #"expected a number between -90 and 90, got "52,5""#),
        Bad(
            "\(base)&location=1,2&lat=1", .conflictingParameters, "location", "conflicts with lat and lon (give the position once)"),
        Bad(
            "\(base)&location=1;2", .invalidValue, "location",
            #"expected LAT,LON in degrees, latitude between -90 and 90 and longitude between -180 and 180, got "1;2""#),
        Bad(
            "\(base)&location=91,2", .invalidValue, "location",
            #"expected LAT,LON in degrees, latitude between -90 and 90 and longitude between -180 and 180, got "91,2""#),
        Bad(
            "\(base)&location=1,2,3", .invalidValue, "location",
            #"expected LAT,LON in degrees, latitude between -90 and 90 and longitude between -180 and 180, got "1,2,3""#),
        // The time.
        Bad(
            "id=a&\(here)", .missingParameter, "timestamp",
            "missing (Waymark needs the fix's own time: UNIX seconds, UNIX milliseconds or ISO 8601)"),
        Bad(
            "id=a&\(here)&timestamp=", .missingParameter, "timestamp",
            "missing (Waymark needs the fix's own time: UNIX seconds, UNIX milliseconds or ISO 8601)"),
        Bad(
            "id=a&\(here)&timestamp=yesterday", .invalidValue, "timestamp",
            #"expected UNIX seconds, UNIX milliseconds or an ISO 8601 time such as 2024-05-01T10:00:00Z, got "yesterday""#),
        Bad(
            "id=a&\(here)&timestamp=-1", .invalidValue, "timestamp",
            #"expected UNIX seconds, UNIX milliseconds or an ISO 8601 time such as 2024-05-01T10:00:00Z, got "-1""#),
        Bad(
            "id=a&\(here)&timestamp=2024-02-30T10:00:00Z", .invalidValue, "timestamp",
            #"expected UNIX seconds, UNIX milliseconds or an ISO 8601 time such as 2024-05-01T10:00:00Z, got "2024-02-30T10:00:00Z""#),
        Bad(
            "id=a&\(here)&timestamp=2024-05-01T12:00:00+02:00", .invalidValue, "timestamp",
            #"expected UNIX seconds, UNIX milliseconds or an ISO 8601 time such as 2024-05-01T10:00:00Z, got "2024-05-01T12:00:00 02:00" (a + in a URL stands for a space: write the offset's + as %2B)"#),
        Bad(
            "id=a&\(here)&timestamp=9223372037", .outOfRange, "timestamp",
            #"expected UNIX seconds or milliseconds before the year 2262, got "9223372037""#),
        Bad(
            "id=a&\(here)&timestamp=100000000000", .outOfRange, "timestamp",
            #"expected UNIX seconds or milliseconds before the year 2262, got "100000000000""#),
        Bad(
            "id=a&\(here)&timestamp=9223372036855", .outOfRange, "timestamp",
            #"expected UNIX seconds or milliseconds before the year 2262, got "9223372036855""#),
        Bad(
            "id=a&\(here)&timestamp=1234567890123456789012", .outOfRange, "timestamp",
            #"expected UNIX seconds or milliseconds before the year 2262, got "1234567890123456789012""#),
        // Optional values.
        Bad("\(base)&\(here)&speed=-1", .outOfRange, "speed", #"expected a speed in knots between 0 and 21771, got "-1""#),
        Bad("\(base)&\(here)&speed=fast", .invalidValue, "speed", #"expected a speed in knots between 0 and 21771, got "fast""#),
        Bad("\(base)&\(here)&bearing=360.5", .outOfRange, "bearing", #"expected a number of degrees between 0 and 360, got "360.5""#),
        Bad("\(base)&\(here)&heading=-1", .outOfRange, "heading", #"expected a number of degrees between 0 and 360, got "-1""#),
        Bad("\(base)&\(here)&bearing=1&heading=1", .conflictingParameters, "heading", "conflicts with bearing (give the course once)"),
        Bad("\(base)&\(here)&altitude=high", .invalidValue, "altitude", #"expected a number of metres between -12000 and 100000, got "high""#),
        Bad("\(base)&\(here)&accuracy=-3", .outOfRange, "accuracy", #"expected a number of metres between 0 and 1000000, got "-3""#),
        Bad("\(base)&\(here)&acc=x", .invalidValue, "acc", #"expected a number of metres between 0 and 1000000, got "x""#),
        Bad("\(base)&\(here)&accuracy=3&acc=3", .conflictingParameters, "acc", "conflicts with accuracy (give the accuracy once)"),
        Bad("\(base)&\(here)&hdop=-0.5", .outOfRange, "hdop", #"expected a number between 0 and 1000000, got "-0.5""#),
        Bad("\(base)&\(here)&batt=101", .outOfRange, "batt", #"expected a number between 0 and 100 (percent), got "101""#),
        Bad("\(base)&\(here)&charge=yes", .invalidValue, "charge", #"expected true, false, 1 or 0, got "yes""#),
        Bad("\(base)&\(here)&valid=maybe", .invalidValue, "valid", #"expected true, false, 1 or 0, got "maybe""#),
        // Encoding and repetition.
        Bad("\(base)&\(here)&lat=1", .repeatedParameter, "lat", "given twice; send each parameter once"),
        Bad("\(base)&\(here)&l%61t=1", .repeatedParameter, "lat", "given twice; send each parameter once"),
        Bad("\(base)&\(here)&timestamp=1", .repeatedParameter, "timestamp", "given twice; send each parameter once"),
        Bad(
            "\(base)&\(here)&driverUniqueId=50%", .badEncoding, "driverUniqueId",
            #"malformed escape "%"; write a byte as % and two hexadecimal digits (%2B for +)"#),
        Bad(
            "\(base)&\(here)&driverUniqueId=%4", .badEncoding, "driverUniqueId",
            #"malformed escape "%4"; write a byte as % and two hexadecimal digits (%2B for +)"#),
        Bad(
            "\(base)&\(here)&driverUniqueId=%ZZtop", .badEncoding, "driverUniqueId",
            #"malformed escape "%ZZ"; write a byte as % and two hexadecimal digits (%2B for +)"#),
        Bad(
            "\(base)&\(here)&dr%GGiver=1", .badEncoding, "dr%GGiver",
            #"malformed escape "%GG"; write a byte as % and two hexadecimal digits (%2B for +)"#),
        Bad("\(base)&\(here)&driverUniqueId=%FF%FE", .badEncoding, "driverUniqueId", "not UTF-8 text after percent-decoding"),
    ]

    @Test("each refused request names the code, the parameter and the reason", arguments: cases)
    func refused(bad: Bad) throws {
        #expect(throws: OsmAndError(code: bad.code, field: bad.field, message: bad.message)) {
            try OsmAndDecoder().decode(query: bad.query)
        }
    }

    @Test func descriptionIsFieldColonMessage() {
        let error = OsmAndError(code: .invalidValue, field: "lat", message: #"expected a number between -90 and 90, got "abc""#)
        #expect(error.description == #"lat: expected a number between -90 and 90, got "abc""#)
    }

    @Test func formBodiesFailTheSameWay() {
        #expect(throws: OsmAndError(code: .repeatedParameter, field: "id", message: "given twice; send each parameter once")) {
            try OsmAndDecoder().decode(formBody: Array("id=a&id=b&lat=1&lon=2&timestamp=1".utf8))
        }
        #expect(throws: OsmAndError(code: .badEncoding, field: "id", message: "not UTF-8 text after percent-decoding")) {
            try OsmAndDecoder().decode(formBody: [UInt8]("id=".utf8) + [0xC3, 0x28] + Array("&lat=1&lon=2&timestamp=1".utf8))
        }
    }

    @Test func speedUnitNamesItselfInErrors() {
        #expect(throws: OsmAndError(code: .outOfRange, field: "speed", message: #"expected a speed in m/s between 0 and 11200, got "-2""#)) {
            try OsmAndDecoder(speedUnit: .metresPerSecond).decode(query: "id=a&lat=1&lon=2&timestamp=1&speed=-2")
        }
    }
}
