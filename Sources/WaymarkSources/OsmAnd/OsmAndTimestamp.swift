import WaymarkCore

/// The forms `timestamp` takes in the OsmAnd protocol, read into a `Timestamp`.
///
/// - A decimal number is UNIX time: seconds, or milliseconds when it is above 10^11
///   (`millisecondsThreshold`). 10^11 seconds is the year 5138 and 10^11 milliseconds is
///   1973-03-03, so no present-day value is ambiguous. (Traccar switches at 2^31 - 1, which
///   reads seconds after 2038-01-19 as milliseconds.) OsmAnd sends milliseconds, Traccar
///   Client and GPSLogger's `%TIMESTAMP` seconds. A fraction is kept exactly.
/// - Anything else is an RFC 3339 / ISO 8601 instant, as `Timestamp(rfc3339:)` reads it
///   (fractional seconds, `Z` or `±HH:MM`, no zone taken as UTC), plus what Traccar also
///   accepts: a space instead of the `T` (`2024-05-01 10:00:00`, Traccar's own format, also
///   taken as UTC where Traccar assumes the server's zone) and offsets written `±HHMM` or `±HH`.
enum OsmAndTimestamp {
    static let millisecondsThreshold: Int64 = 100_000_000_000

    enum Parsed: Equatable {
        case time(Timestamp)
        /// A number, but past what `Timestamp` holds (2262).
        case outOfRange
        case unrecognized
    }

    static func parse(_ text: String) -> Parsed {
        let bytes = Array(text.utf8)
        if let first = bytes.first, isDigit(first) || first == UInt8(ascii: ".") {
            if let parsed = number(bytes) { return parsed }
        }
        return iso8601(bytes).map(Parsed.time) ?? .unrecognized
    }

    /// `digits[.digits]`, or nil when the text is not of that form.
    private static func number(_ bytes: [UInt8]) -> Parsed? {
        let dot = bytes.firstIndex(of: UInt8(ascii: "."))
        let whole = bytes[..<(dot ?? bytes.endIndex)]
        let fraction = dot.map { bytes[($0 + 1)...] } ?? []
        guard !whole.isEmpty, whole.allSatisfy(isDigit), dot == nil || (!fraction.isEmpty && fraction.allSatisfy(isDigit))
        else { return nil }
        guard whole.count <= 18 else { return .outOfRange }
        let integer = whole.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
        // Nanoseconds per unit, and the fraction's digits at that scale (beyond it, dropped).
        let unit: Int64 = integer > millisecondsThreshold ? 1_000_000 : 1_000_000_000
        var scale = unit / 10
        var fractionNanoseconds: Int64 = 0
        for digit in fraction where scale > 0 {
            fractionNanoseconds += Int64(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        let (product, overflow) = integer.multipliedReportingOverflow(by: unit)
        let (total, overflow2) = product.addingReportingOverflow(fractionNanoseconds)
        guard !overflow, !overflow2 else { return .outOfRange }
        return .time(Timestamp(nanosecondsSince1970: total))
    }

    private static func iso8601(_ input: [UInt8]) -> Timestamp? {
        var bytes = input
        // `YYYY-MM-DD HH:MM:SS`: Traccar's own form.
        if bytes.count > 10, bytes[10] == UInt8(ascii: " ") { bytes[10] = UInt8(ascii: "T") }
        // The zone starts after `YYYY-MM-DDTHH:MM:SS` and any fraction.
        var zone = 19
        if zone < bytes.count, bytes[zone] == UInt8(ascii: ".") {
            zone += 1
            while zone < bytes.count, isDigit(bytes[zone]) { zone += 1 }
        }
        if zone < bytes.count, bytes[zone] == UInt8(ascii: "+") || bytes[zone] == UInt8(ascii: "-") {
            let offset = bytes[(zone + 1)...]
            if offset.count == 4, offset.allSatisfy(isDigit) {
                bytes.insert(UInt8(ascii: ":"), at: zone + 3)
            } else if offset.count == 2, offset.allSatisfy(isDigit) {
                bytes += Array(":00".utf8)
            }
        }
        return Timestamp(rfc3339: bytes)
    }

    /// Whether `text` looks like an ISO time whose `+` offset became a space: a `+` in a URL
    /// stands for a space unless written `%2B`.
    static func lostPlusSign(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count > 19, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") else { return false }
        guard let space = bytes[19...].firstIndex(of: UInt8(ascii: " ")), space + 1 < bytes.count else { return false }
        return isDigit(bytes[space + 1])
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
