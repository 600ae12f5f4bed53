import WaymarkCore

/// Decodes one report in the OsmAnd protocol as Traccar's server reads it: parameters in the
/// query string or an `application/x-www-form-urlencoded` body (see `OsmAndParameters` for
/// the encoding). Pure: text in, report out; no clock.
///
/// - `id` or `deviceid` (not both): the device identifier, required.
/// - `lat` and `lon`, or `location=LAT,LON` (not both): degrees, required.
/// - `timestamp`: required. Traccar takes the time of arrival when it is missing, but
///   Waymark's validation gate judges a fix by its own time, so a report without one is an
///   error. UNIX seconds, UNIX milliseconds or ISO 8601; see `OsmAndTimestamp`.
/// - Every number is bounded by `NumberRule` (speeds to 11.2 km/s, altitudes −12…100 km,
///   accuracies to 1,000 km): a value outside is an `outOfRange` error naming the parameter.
/// - `speed`: knots by default, as Traccar defines the protocol (Traccar Client converts to
///   knots); converted to m/s. OsmAnd and GPSLogger substitute Android's m/s into their
///   templates, so a listener for those clients can set `speedUnit` to `.metresPerSecond`.
/// - `bearing` or `heading` (not both): degrees, 0…360.
/// - `altitude`: metres. `accuracy` or `acc` (not both): horizontal accuracy, metres.
///   `hdop`: kept as the fix's `hdop`, a dilution (OsmAnd actually fills it with Android's
///   accuracy in metres; the name is taken at its word).
/// - `batt`: percent, 0…100. `charge` and `valid`: `true`, `false`, `1` or `0`; a report
///   with `valid=false` is decoded and flagged (`isValid`). `driverUniqueId`: text.
///
/// An optional parameter with an empty value counts as absent (clients fill URL templates
/// and leave a placeholder empty when the phone has no value). A repeated parameter is an
/// error; unknown parameters (`cell`, `wifi`, `event`, …) are ignored.
public struct OsmAndDecoder: Sendable {
    /// The unit of `speed` in the requests this decoder reads.
    public enum SpeedUnit: Sendable, Equatable {
        /// Nautical miles per hour, 1852/3600 m/s: Traccar's definition of the protocol.
        case knots
        case metresPerSecond

        var metresPerSecond: Double {
            switch self {
            case .knots: 1852.0 / 3600.0
            case .metresPerSecond: 1
            }
        }

        var name: String {
            switch self {
            case .knots: "knots"
            case .metresPerSecond: "m/s"
            }
        }
    }

    public var speedUnit: SpeedUnit

    public init(speedUnit: SpeedUnit = .knots) {
        self.speedUnit = speedUnit
    }

    /// Decodes a query string (the part after `?`; a leading `?` is skipped).
    public func decode(query: String) throws(OsmAndError) -> OsmAndReport {
        var bytes = Substring(query).utf8[...]
        if bytes.first == UInt8(ascii: "?") { bytes = bytes.dropFirst() }
        return try report(try OsmAndParameters(bytes))
    }

    /// Decodes an `application/x-www-form-urlencoded` request body.
    public func decode(formBody: [UInt8]) throws(OsmAndError) -> OsmAndReport {
        try report(try OsmAndParameters(formBody))
    }

    func report(_ parameters: OsmAndParameters) throws(OsmAndError) -> OsmAndReport {
        let values = OsmAndValues(parameters: parameters)
        guard let device = try values.either("id", "deviceid", what: "the device identifier") else {
            throw OsmAndError(
                code: .missingParameter, field: "id", message: "missing (the device identifier; deviceid is accepted too)")
        }
        guard !device.value.isEmpty else {
            throw OsmAndError(code: .invalidValue, field: device.name, message: "expected a device identifier, got \"\"")
        }
        let coordinate = try values.coordinate()
        guard let timestamp = values["timestamp"], !timestamp.isEmpty else {
            throw OsmAndError(
                code: .missingParameter, field: "timestamp",
                message: "missing (Waymark needs the fix's own time: UNIX seconds, UNIX milliseconds or ISO 8601)")
        }
        var fix = Fix(time: try Self.time(timestamp), coordinate: coordinate)
        let speedRule = NumberRule(speedIn: speedUnit.name, metresPerSecond: speedUnit.metresPerSecond)
        fix.speed = try values.number("speed", speedRule).map { $0 * speedUnit.metresPerSecond }
        if let course = try values.either("bearing", "heading", what: "the course") {
            fix.course = try values.number(course.name, .degrees)
        }
        fix.altitude = try values.number("altitude", .altitude)
        if let accuracy = try values.either("accuracy", "acc", what: "the accuracy") {
            fix.horizontalAccuracy = try values.number(accuracy.name, .metres)
        }
        // OsmAnd fills hdop with metres (see above), so it takes the accuracies' bound.
        fix.hdop = try values.number("hdop", NumberRule(expected: "a number between 0 and 1000000", range: 0...NumberRule.maximumMetres))
        return OsmAndReport(
            deviceID: device.value, fix: fix,
            isValid: try values.bool("valid") ?? true,
            batteryLevel: try values.number("batt", NumberRule(expected: "a number between 0 and 100 (percent)", range: 0...100)),
            isCharging: try values.bool("charge"),
            driverUniqueID: values.nonEmpty("driverUniqueId"))
    }

    static func time(_ text: String) throws(OsmAndError) -> Timestamp {
        switch OsmAndTimestamp.parse(text) {
        case .time(let time):
            return time
        case .outOfRange:
            throw OsmAndError(
                code: .outOfRange, field: "timestamp",
                message: "expected UNIX seconds or milliseconds before the year 2262, got \"\(text)\"")
        case .unrecognized:
            var message = "expected UNIX seconds, UNIX milliseconds or an ISO 8601 time such as 2024-05-01T10:00:00Z, got \"\(text)\""
            if OsmAndTimestamp.lostPlusSign(text) {
                message += " (a + in a URL stands for a space: write the offset's + as %2B)"
            }
            throw OsmAndError(code: .invalidValue, field: "timestamp", message: message)
        }
    }
}
