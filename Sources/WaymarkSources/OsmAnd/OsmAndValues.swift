import WaymarkCore

/// Reads the parameters of one OsmAnd request as typed values, failing with an `OsmAndError`
/// that names the parameter and quotes its value.
struct OsmAndValues {
    let parameters: OsmAndParameters

    subscript(name: String) -> String? { parameters[name] }

    /// The value of `name`, `nil` when absent or empty.
    func nonEmpty(_ name: String) -> String? {
        guard let value = parameters[name], !value.isEmpty else { return nil }
        return value
    }

    /// Whichever of two names for the same thing is given; both is an error naming the second.
    func either(_ first: String, _ second: String, what: String) throws(OsmAndError) -> (name: String, value: String)? {
        switch (parameters[first], parameters[second]) {
        case (let value?, nil): return (first, value)
        case (nil, let value?): return (second, value)
        case (nil, nil): return nil
        case (_?, _?):
            throw OsmAndError(
                code: .conflictingParameters, field: second, message: "conflicts with \(first) (give \(what) once)")
        }
    }

    /// A decimal number (`[+-]digits[.digits][e±digits]`, as Java's `Float.toString` writes it
    /// too) within `rule`'s range; `nil` when absent or empty.
    func number(_ name: String, _ rule: NumberRule) throws(OsmAndError) -> Double? {
        guard let text = nonEmpty(name) else { return nil }
        return try Self.number(text, name, rule)
    }

    static func number(_ text: String, _ name: String, _ rule: NumberRule) throws(OsmAndError) -> Double {
        var copy = text
        guard let value = copy.withUTF8({ DecimalParser.parse($0) }) else {
            throw OsmAndError(code: .invalidValue, field: name, message: "expected \(rule.expected), got \"\(text)\"")
        }
        guard rule.range.contains(value) else {
            throw OsmAndError(code: .outOfRange, field: name, message: "expected \(rule.expected), got \"\(text)\"")
        }
        return value
    }

    /// `true`, `false`, `1` or `0` (the words in any case); `nil` when absent or empty.
    func bool(_ name: String) throws(OsmAndError) -> Bool? {
        guard let text = nonEmpty(name) else { return nil }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default:
            throw OsmAndError(code: .invalidValue, field: name, message: "expected true, false, 1 or 0, got \"\(text)\"")
        }
    }

    /// `lat` and `lon`, or `location=LAT,LON`.
    func coordinate() throws(OsmAndError) -> Coordinate {
        if let location = parameters["location"] {
            if parameters["lat"] != nil || parameters["lon"] != nil {
                throw OsmAndError(
                    code: .conflictingParameters, field: "location", message: "conflicts with lat and lon (give the position once)")
            }
            let parts = location.split(separator: ",", omittingEmptySubsequences: false)
            let expected = "LAT,LON in degrees, latitude between -90 and 90 and longitude between -180 and 180"
            guard parts.count == 2,
                let latitude = try? Self.number(String(parts[0]).trimmingSpaces, "location", .latitude),
                let longitude = try? Self.number(String(parts[1]).trimmingSpaces, "location", .longitude)
            else {
                throw OsmAndError(code: .invalidValue, field: "location", message: "expected \(expected), got \"\(location)\"")
            }
            return Coordinate(latitude: latitude, longitude: longitude)
        }
        let why = "a report needs a position: lat and lon, or location=LAT,LON"
        guard let latitude = parameters["lat"] else {
            throw OsmAndError(code: .missingParameter, field: "lat", message: "missing (\(why))")
        }
        guard let longitude = parameters["lon"] else {
            throw OsmAndError(code: .missingParameter, field: "lon", message: "missing (\(why))")
        }
        // Required, so an empty value is a bad number rather than an absent one.
        return Coordinate(
            latitude: try Self.number(latitude, "lat", .latitude), longitude: try Self.number(longitude, "lon", .longitude))
    }
}

extension String {
    /// Without leading and trailing spaces.
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
