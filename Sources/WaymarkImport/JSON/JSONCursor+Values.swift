import WaymarkCore

/// The typed values the history decoders read, each checked, null taken as absent, and a
/// wrong kind reported as `invalidValue` naming the field and where it is.
extension JSONCursor {
    /// Where the next value starts.
    mutating func mark() -> ImportError.Position {
        skipWhitespace()
        return here
    }

    func invalid(_ field: String, _ problem: String, at position: ImportError.Position) -> JSONStop {
        failure(.invalidValue, "\(field): \(problem)", at: position)
    }

    private mutating func kind() throws(JSONStop) -> String { Self.kind(startingWith: try peek()) ?? "not a value" }

    /// A number, or nil for null.
    mutating func double(_ field: StaticString) throws(JSONStop) -> Double? {
        if try skipNull() { return nil }
        let next = try peek()
        guard next == UInt8(ascii: "-") || next &- 0x30 < 10 else {
            throw invalid("\(field)", "expected a number, found \(try kind())", at: here)
        }
        return try number()
    }

    /// A number, or a string holding one (Apple's export writes `"distanceMeters": "1234.5"`).
    mutating func numeric(_ field: StaticString) throws(JSONStop) -> Double? {
        guard try peek() == UInt8(ascii: "\"") else { return try double(field) }
        let at = here
        let text = try rawString()
        guard let value = Double(text.decoded), value.isFinite else {
            throw invalid("\(field)", "expected a number, found \"\(text.decoded)\"", at: at)
        }
        return value
    }

    /// A string, or nil for null.
    mutating func optionalString(_ field: StaticString) throws(JSONStop) -> String? {
        if try skipNull() { return nil }
        guard try peek() == UInt8(ascii: "\"") else {
            throw invalid("\(field)", "expected a string, found \(try kind())", at: here)
        }
        return try string()
    }

    /// Degrees × 10⁷ as Google writes them (`latitudeE7`). Old Takeout exports wrote negative
    /// values as unsigned 32-bit numbers: a value above 1 800 000 000 (beyond any valid one) is
    /// taken as such and has 2³² subtracted.
    mutating func e7(_ field: StaticString) throws(JSONStop) -> Double? {
        guard var value = try double(field) else { return nil }
        if value > 1_800_000_000 { value -= 4_294_967_296 }
        return value / 10_000_000
    }

    /// A time: an RFC 3339 string (any fraction, `Z` or an offset), or milliseconds since 1970
    /// as a string of digits or a number (Google's `timestampMs`).
    mutating func time(_ field: StaticString) throws(JSONStop) -> Timestamp? {
        if try skipNull() { return nil }
        let at = here
        if try peek() == UInt8(ascii: "\"") {
            let text = try rawString()
            if let time = text.rfc3339 { return time }
            if let milliseconds = text.integer, abs(milliseconds) < 9_000_000_000_000 {
                return Timestamp(nanosecondsSince1970: milliseconds * 1_000_000)
            }
            throw invalid("\(field)", "\"\(text.decoded)\" is not a time (RFC 3339, or milliseconds since 1970)", at: at)
        }
        guard let milliseconds = try double(field), let time = Self.time(milliseconds: milliseconds) else {
            throw invalid("\(field)", "the time is out of range", at: at)
        }
        return time
    }

    /// Milliseconds since 1970 as an instant; whole milliseconds exactly.
    static func time(milliseconds: Double) -> Timestamp? {
        if milliseconds == milliseconds.rounded(), abs(milliseconds) < 9e12 {
            return Timestamp(nanosecondsSince1970: Int64(milliseconds) * 1_000_000)
        }
        let nanoseconds = (milliseconds * 1_000_000).rounded()
        guard nanoseconds.isFinite, abs(nanoseconds) < 9.2e18 else { return nil }
        return Timestamp(nanosecondsSince1970: Int64(nanoseconds))
    }

    /// A position written as text: Android's `"47.1234567°, 8.1234567°"` or Apple's
    /// `"geo:47.1,8.1"`, checked to be on Earth.
    mutating func textCoordinate(_ field: StaticString) throws(JSONStop) -> Coordinate? {
        if try skipNull() { return nil }
        let at = here
        guard try peek() == UInt8(ascii: "\"") else {
            throw invalid("\(field)", "expected a position in a string, found \(try kind())", at: at)
        }
        let text = try rawString()
        guard let pair = Self.latitudeLongitude(text.raw) else {
            throw invalid("\(field)", "\"\(text.decoded)\" is not a position (\"47.1°, 8.1°\" or \"geo:47.1,8.1\")", at: at)
        }
        return try checked(latitude: pair.0, longitude: pair.1, field, at: at)
    }

    /// The two numbers of `47.1°, 8.1°` or `geo:47.1,8.1`.
    static func latitudeLongitude(_ raw: UnsafeBufferPointer<UInt8>) -> (Double, Double)? {
        var text = JSONCursor(bytes: raw, base: 0, complete: true, line: 1, lineStart: 0)
        if raw.count >= 4, raw[0] == UInt8(ascii: "g"), raw[1] == UInt8(ascii: "e"), raw[2] == UInt8(ascii: "o"),
            raw[3] == UInt8(ascii: ":")
        {
            text.i = 4
        }
        func degreeSign(_ text: inout JSONCursor) {
            if text.i + 1 < raw.count, raw[text.i] == 0xC2, raw[text.i + 1] == 0xB0 { text.i += 2 }
            text.skipWhitespace()
        }
        guard let latitude = try? text.number() else { return nil }
        degreeSign(&text)
        guard text.i < raw.count, raw[text.i] == UInt8(ascii: ",") else { return nil }
        text.i += 1
        text.skipWhitespace()
        guard let longitude = try? text.number() else { return nil }
        degreeSign(&text)
        guard text.i == raw.count else { return nil }
        return (latitude, longitude)
    }

    /// A coordinate from its parts, or `invalidValue` naming the field when off the Earth.
    func checked(latitude: Double, longitude: Double, _ field: StaticString, at position: ImportError.Position) throws(JSONStop) -> Coordinate {
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else {
            throw invalid("\(field)", "latitude \(latitude), longitude \(longitude) is not a position on Earth", at: position)
        }
        return coordinate
    }
}
