import WaymarkCore
import WaymarkSources

/// A KML position as written: longitude, latitude and an optional altitude, in degrees and
/// metres. `<coordinates>` separates them with commas (`8.54,47.37,408`), `<gx:coord>` with
/// spaces (`8.54 47.37 408`); either separator is accepted in both.
struct KMLPosition: Sendable {
    var longitude: Double
    var latitude: Double
    var altitude: Double?

    /// Parses one position from `text`; `element` names it in errors.
    init(_ text: UnsafeBufferPointer<UInt8>, _ element: String, in scanner: XMLScanner) throws(ImportError) {
        var values = (0.0, 0.0, 0.0)
        var count = 0
        var i = 0
        while i < text.count {
            while i < text.count, isSeparator(text[i]) { i += 1 }
            if i == text.count { break }
            let start = i
            while i < text.count, !isSeparator(text[i]) { i += 1 }
            guard count < 3 else {
                throw scanner.textError(
                    .invalidValue, element, text, "has more than one position (longitude, latitude, altitude)")
            }
            let value = try scanner.number(UnsafeBufferPointer(rebasing: text[start..<i]), element)
            switch count {
            case 0: values.0 = value
            case 1: values.1 = value
            default: values.2 = value
            }
            count += 1
        }
        guard count >= 2 else {
            throw scanner.textError(.invalidValue, element, text, "is not a position: expected longitude, latitude[, altitude]")
        }
        try scanner.checkPosition(latitude: values.1, longitude: values.0, element, text)
        longitude = values.0
        latitude = values.1
        altitude = count == 3 ? values.2 : nil
    }

    func fix(at time: Timestamp) -> Fix {
        Fix(time: time, coordinate: Coordinate(latitude: latitude, longitude: longitude), altitude: altitude)
    }
}

@inline(__always)
private func isSeparator(_ b: UInt8) -> Bool {
    b == UInt8(ascii: ",") || isWhitespace(b)
}

/// A KML `<when>`: an xsd:dateTime (a time with no zone is UTC), or one of the coarser forms
/// KML also allows — a year, a year and month, a date — which place nothing to the second and
/// are taken as no time (`nil`). Anything else throws.
func kmlTime(_ text: UnsafeBufferPointer<UInt8>, in scanner: XMLScanner) throws(ImportError) -> Timestamp? {
    if let time = Timestamp(rfc3339: text) { return time }
    if isCoarseDate(text) { return nil }
    throw scanner.textError(
        .invalidValue, "when", text, "is not a time: expected an xsd:dateTime such as 2024-05-01T08:30:00Z")
}

/// `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, optionally with a zone (`Z`, `±HH:MM`).
private func isCoarseDate(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    var end = text.count
    if end > 0, text[end - 1] == UInt8(ascii: "Z") {
        end -= 1
    } else if end >= 6, text[end - 3] == UInt8(ascii: ":"),
        text[end - 6] == UInt8(ascii: "+") || text[end - 6] == UInt8(ascii: "-")
    {
        end -= 6
    }
    guard end == 4 || end == 7 || end == 10 else { return false }
    for k in 0..<end {
        let isDash = k == 4 || k == 7
        if isDash ? text[k] != UInt8(ascii: "-") : text[k] &- 0x30 >= 10 { return false }
    }
    return true
}
