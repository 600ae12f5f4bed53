import WaymarkCore
import WaymarkGeoJSON

/// Reads the members of one JSON object of an OwnTracks body as typed values, failing with an
/// `OwnTracksError` that names the member by its path.
///
/// Types are strict: a number must be a JSON number and a string a JSON string. The booklet's
/// waypoint example still quotes its numbers (`"lat": "48.858330"`), but that predates the
/// apps' switch to real JSON numbers (Android 0.5.11 and iOS 8.0, as the booklet itself notes)
/// and no current client sends strings, so a quoted number is an error naming the member.
/// `null` counts as absent for an optional member; members this reader is not asked about are
/// ignored, since the apps add members from version to version.
struct OwnTracksObjectReader {
    let body: OwnTracksBody
    let node: JSONNode
    let members: [JSONMember]
    /// The object's own path: empty for a single-message body, `[2]` in a batch,
    /// `waypoints[0]` inside a waypoints list.
    let path: String

    init?(_ node: JSONNode, path: String, body: OwnTracksBody) {
        guard case .object(let members) = node.value else { return nil }
        self.body = body
        self.node = node
        self.members = members
        self.path = path
    }

    /// The path of member `key`, e.g. `[1].lat`.
    func field(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    func fail(_ code: OwnTracksError.Code, _ key: String, _ message: String, at node: JSONNode) -> OwnTracksError {
        body.error(code, field(key), message, at: node.start)
    }

    // MARK: Members

    /// The value of `key`, `null` included; `nil` when absent. A key given twice is an error.
    func value(_ key: String) throws(OwnTracksError) -> JSONNode? {
        var found: JSONNode?
        for member in members where member.key == key {
            if found != nil {
                throw body.error(
                    .repeatedMember, field(key), "given twice; send each member once", at: member.keyStart)
            }
            found = member.value
        }
        return found
    }

    /// The value of an optional member: `nil` when absent or `null`.
    func optional(_ key: String) throws(OwnTracksError) -> JSONNode? {
        guard let value = try value(key), !value.isNull else { return nil }
        return value
    }

    /// The value of a required member; `why` says what it is needed for.
    func required(_ key: String, why: String) throws(OwnTracksError) -> JSONNode {
        guard let value = try value(key) else {
            throw body.error(.missingMember, field(key), "missing (\(why))", at: node.start)
        }
        return value
    }

    // MARK: Strings

    func string(_ key: String) throws(OwnTracksError) -> String? {
        guard let value = try optional(key) else { return nil }
        return try string(value, key)
    }

    func requiredString(_ key: String, why: String) throws(OwnTracksError) -> String {
        try string(try required(key, why: why), key)
    }

    private func string(_ value: JSONNode, _ key: String) throws(OwnTracksError) -> String {
        guard case .string(let text) = value.value else {
            throw fail(.wrongType, key, "expected a string, got \(value.value.typeName)", at: value)
        }
        return text
    }

    /// An array of strings (`inregions`); an element of another type is named by its index.
    func strings(_ key: String) throws(OwnTracksError) -> [String]? {
        guard let value = try optional(key) else { return nil }
        guard case .array(let elements) = value.value else {
            throw fail(.wrongType, key, "expected an array of strings, got \(value.value.typeName)", at: value)
        }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element.value else {
                throw fail(.wrongType, "\(key)[\(index)]", "expected a string, got \(element.value.typeName)", at: element)
            }
            strings.append(text)
        }
        return strings
    }

    // MARK: Numbers

    func number(_ key: String, _ rule: NumberRule) throws(OwnTracksError) -> Double? {
        guard let value = try optional(key) else { return nil }
        return try number(value, key, rule)
    }

    func requiredNumber(_ key: String, _ rule: NumberRule, why: String) throws(OwnTracksError) -> Double {
        try number(try required(key, why: why), key, rule)
    }

    private func number(_ value: JSONNode, _ key: String, _ rule: NumberRule) throws(OwnTracksError) -> Double {
        guard case .number(let number) = value.value else {
            throw fail(.wrongType, key, "expected \(rule.expected), got \(value.value.typeName)", at: value)
        }
        // A literal too large for a Double (1e400) parses as infinity: out of every range.
        guard rule.range.contains(number) else {
            throw fail(.outOfRange, key, "expected \(rule.expected), got \(body.text(of: value))", at: value)
        }
        return number
    }

    func integer(_ key: String, _ rule: IntegerRule) throws(OwnTracksError) -> Int? {
        guard let value = try optional(key) else { return nil }
        return try integer(value, key, rule)
    }

    func requiredInteger(_ key: String, _ rule: IntegerRule, why: String) throws(OwnTracksError) -> Int {
        try integer(try required(key, why: why), key, rule)
    }

    private func integer(_ value: JSONNode, _ key: String, _ rule: IntegerRule) throws(OwnTracksError) -> Int {
        guard case .number(let number) = value.value else {
            throw fail(.wrongType, key, "expected \(rule.expected), got \(value.value.typeName)", at: value)
        }
        guard number.rounded() == number, Double(rule.range.lowerBound) <= number, number <= Double(rule.range.upperBound)
        else {
            let code: OwnTracksError.Code = number.rounded() == number ? .outOfRange : .invalidValue
            throw fail(code, key, "expected \(rule.expected), got \(body.text(of: value))", at: value)
        }
        return Int(number)
    }

    // MARK: Times and positions

    /// UNIX seconds, integral or not, from 1970 to 2262 (what `Timestamp` holds).
    func time(_ key: String) throws(OwnTracksError) -> Timestamp? {
        try number(key, .unixSeconds).map(Self.timestamp(seconds:))
    }

    func requiredTime(_ key: String, why: String) throws(OwnTracksError) -> Timestamp {
        Self.timestamp(seconds: try requiredNumber(key, .unixSeconds, why: why))
    }

    /// Whole seconds and the fraction converted apart, so `1714557600.25` is exactly a quarter
    /// second past (scaling the whole Double by 10^9 would round to a multiple of 256 ns).
    static func timestamp(seconds: Double) -> Timestamp {
        let whole = seconds.rounded(.down)
        let nanoseconds = ((seconds - whole) * 1e9).rounded()
        return Timestamp(nanosecondsSince1970: Int64(whole) * 1_000_000_000 + Int64(nanoseconds))
    }

    /// `lat` and `lon`, both required; `why` says what the position is needed for.
    func coordinate(why: String) throws(OwnTracksError) -> Coordinate {
        let latitude = try requiredNumber("lat", .latitude, why: why)
        let longitude = try requiredNumber("lon", .longitude, why: why)
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// `lat` and `lon` when the position is optional: both or neither; one without the other
    /// is an error naming the missing one.
    func optionalCoordinate() throws(OwnTracksError) -> Coordinate? {
        let latitude = try number("lat", .latitude)
        let longitude = try number("lon", .longitude)
        switch (latitude, longitude) {
        case (let latitude?, let longitude?): return Coordinate(latitude: latitude, longitude: longitude)
        case (nil, nil): return nil
        case (nil, _): throw body.error(.missingMember, field("lat"), "missing (lon is given; a position needs both)", at: node.start)
        case (_, nil): throw body.error(.missingMember, field("lon"), "missing (lat is given; a position needs both)", at: node.start)
        }
    }
}
