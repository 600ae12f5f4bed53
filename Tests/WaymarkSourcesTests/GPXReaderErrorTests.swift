import Testing
import WaymarkCore
import WaymarkSources

/// Malformed input: each case names the error code, the message and the exact position, and
/// runs with reads of 7 and 13 bytes (every token straddles two reads) as well as 256 KiB.
struct GPXReaderErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var code: GPXError.Code
        var message: String
        var line: Int
        var column: Int
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ code: GPXError.Code, _ message: String, _ line: Int, _ column: Int) {
            self.init(name, Array(text.utf8), code, message, line, column)
        }

        init(_ name: String, _ bytes: [UInt8], _ code: GPXError.Code, _ message: String, _ line: Int, _ column: Int) {
            self.name = name
            self.bytes = bytes
            self.code = code
            self.message = message
            self.line = line
            self.column = column
        }
    }

    static let prolog = Array("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">\n".utf8)

    static let cases: [Case] = [
        Case("empty file", "", .emptyFile, "the file is empty", 1, 1),
        Case("only a byte order mark", [0xEF, 0xBB, 0xBF], .emptyFile, "the file is empty", 1, 1),
        Case(
            "only whitespace", "  \n\t", .unexpectedEndOfFile, "the document has no root element", 2, 2),
        Case("plain text", "hello, world\n", .notXML, "not an XML document: it does not start with '<'", 1, 1),
        Case("JSON", "\n  {\"type\": \"FeatureCollection\"}", .notXML, "not an XML document: it does not start with '<'", 2, 3),
        Case(
            "UTF-16", [0xFF, 0xFE, 0x3C, 0x00], .unsupportedEncoding,
            "UTF-16 and UTF-32 are not supported; convert the file to UTF-8", 1, 1),
        Case(
            "Latin-1 declaration", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<gpx/>", .unsupportedEncoding,
            "the encoding ISO-8859-1 is not supported; convert the file to UTF-8", 1, 31),
        Case("root is not gpx", "<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"></kml>", .notGPX,
             "the root element is <kml>, not <gpx>", 2, 1),
        Case(
            "unsupported version", "<gpx version=\"2.0\"></gpx>", .unsupportedVersion,
            "GPX version \"2.0\" is not supported; expected 1.0 or 1.1", 1, 15),
        Case(
            "truncated inside a point", gpx("<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\">"), .unexpectedEndOfFile,
            "unexpected end of file in text inside <trkpt>", 4, 24),
        Case(
            "truncated inside a start tag", gpx("<trk><trkseg><trkpt lat=\"1\" lo"), .unexpectedEndOfFile,
            "unexpected end of file in the start tag inside <trkseg>", 3, 31),
        Case(
            "truncated after the last point", gpx("<trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg>\n"),
            .unexpectedEndOfFile, "unexpected end of file in text inside <trk>", 4, 1),
        Case(
            "unclosed comment", gpx("<!-- never closed"), .unexpectedEndOfFile,
            "unexpected end of file in a comment inside <gpx>", 3, 18),
        Case(
            "mismatched end tag", gpx("<trk><trkseg></trk>"), .mismatchedEndTag,
            "end tag </trk> does not match <trkseg>", 3, 14),
        Case(
            "lat is not a number", gpx("<wpt lat=\"abc\" lon=\"2\"/>"), .badNumber, "lat \"abc\" is not a number", 3, 11),
        Case("empty lon", gpx("<wpt lat=\"1\" lon=\"\"/>"), .badNumber, "lon \"\" is not a number", 3, 19),
        Case(
            "ele with two points", gpx("<wpt lat=\"1\" lon=\"2\"><ele>1.2.3</ele></wpt>"), .badNumber,
            "ele \"1.2.3\" is not a number", 3, 27),
        Case(
            "sat is not a count", gpx("<wpt lat=\"1\" lon=\"2\">\n  <sat>-4</sat></wpt>"), .badNumber,
            "sat \"-4\" is not a whole number of satellites", 4, 8),
        Case(
            "latitude above 90", gpx("<wpt lat=\"91.5\" lon=\"2\"/>"), .latitudeOutOfRange,
            "latitude 91.5 is outside -90…90", 3, 11),
        Case(
            "longitude below -180", gpx("<wpt lat=\"1\" lon=\"-180.5\"/>"), .longitudeOutOfRange,
            "longitude -180.5 is outside -180…180", 3, 19),
        Case(
            "column counts characters, not bytes",
            gpx("<wpt lat=\"1\" lon=\"2\"><name>Škofja Loka</name></wpt><wpt lat=\"-95\" lon=\"0\"/>"),
            .latitudeOutOfRange, "latitude -95 is outside -90…90", 3, 62),
        Case("missing lat", gpx("<wpt lon=\"2\"/>"), .missingAttribute, "<wpt> has no lat attribute", 3, 1),
        Case(
            "missing lon", gpx("<trk><trkseg><trkpt lat=\"1\"/>"), .missingAttribute, "<trkpt> has no lon attribute", 3,
            14),
        Case(
            "impossible date", gpx("<wpt lat=\"1\" lon=\"2\"><time>2019-02-30T00:00:00Z</time></wpt>"), .badTime,
            "time \"2019-02-30T00:00:00Z\" is not an RFC 3339 date and time such as 2019-10-22T14:36:00Z", 3, 28),
        Case(
            "time without seconds", gpx("<wpt lat=\"1\" lon=\"2\"><time>2019-02-03 10:00</time></wpt>"), .badTime,
            "time \"2019-02-03 10:00\" is not an RFC 3339 date and time such as 2019-10-22T14:36:00Z", 3, 28),
        Case(
            "unknown fix type", gpx("<wpt lat=\"1\" lon=\"2\"><fix>4d</fix></wpt>"), .badValue,
            "fix \"4d\" is not one of none, 2d, 3d, dgps, pps", 3, 27),
        Case(
            "negative accuracy", gpx("<wpt lat=\"1\" lon=\"2\"><extensions><tpx:hacc>-3</tpx:hacc></extensions></wpt>"),
            .badValue, "accuracy \"-3\" is not an accuracy: expected metres from 0 to 100000", 3, 44),
        Case(
            "absurd accuracy", gpx("<wpt lat=\"1\" lon=\"2\"><extensions><x><accuracy>2e5</accuracy></x></extensions></wpt>"),
            .badValue, "accuracy \"2e5\" is not an accuracy: expected metres from 0 to 100000", 3, 47),
        Case(
            "accuracy not a number", gpx("<wpt lat=\"1\" lon=\"2\"><extensions><horizontalAccuracy>5 m</horizontalAccuracy></extensions></wpt>"),
            .badNumber, "accuracy \"5 m\" is not a number", 3, 54),
        Case(
            "invalid UTF-8 in a tag name", prolog + Array("<t".utf8) + [0xE5] + Array("></t".utf8) + [0xE5, 0x3E],
            .invalidUTF8, "invalid UTF-8 in a name", 3, 3),
        Case(
            "entity declaration", "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [\n <!ENTITY lol \"lol\">\n]>\n<gpx/>",
            .entityDeclaration, "entity declarations are not allowed (<!ENTITY in the DOCTYPE)", 3, 2),
        Case(
            "undefined entity", gpx("<wpt lat=\"1\" lon=\"2\"><name>a &lol; b</name></wpt>"), .undefinedEntity,
            "undefined entity &lol;", 3, 30),
        Case(
            "undefined entity in skipped text", gpx("<metadata><desc>&nbsp;</desc></metadata>"), .undefinedEntity,
            "undefined entity &nbsp;", 3, 17),
        Case(
            "bare ampersand", gpx("<wpt lat=\"1\" lon=\"2\"><name>Fish & Chips</name></wpt>"), .undefinedEntity,
            "'&' must start a reference such as &amp;", 3, 33),
        Case(
            "NUL character reference", gpx("<wpt lat=\"1\" lon=\"2\"><name>&#0;</name></wpt>"), .badCharacterReference,
            "&#0; is not an XML character", 3, 28),
        Case(
            "element inside ele", gpx("<wpt lat=\"1\" lon=\"2\"><ele>1<b/></ele></wpt>"), .unexpectedElement,
            "<b> is not allowed inside <ele>, which holds text", 3, 28),
        // A name longer than a small buffer: the message names it whole at every buffer size.
        Case(
            "long element inside ele", gpx("<wpt lat=\"1\" lon=\"2\"><ele>1<gpxtpx:TrackPointExtension/></ele></wpt>"),
            .unexpectedElement, "<gpxtpx:TrackPointExtension> is not allowed inside <ele>, which holds text", 3, 28),
        Case("second root element", gpx("") + Array("\n</gpx>\n<gpx/>".utf8), .syntax, "a second root element <gpx>", 5, 1),
        Case("text after the root", gpx("") + Array("\n</gpx>\njunk".utf8), .syntax, "text after the root element", 5, 1),
        Case(
            "unquoted attribute", gpx("<wpt lat=1 lon=\"2\"/>"), .syntax, "expected a quoted value for the attribute lat",
            3, 10),
        Case("missing '>'", gpx("<trk\n<trkseg>"), .syntax, "'<' inside a tag; is a '>' missing?", 4, 1),
        Case("double hyphen in a comment", gpx("<!-- a -- b -->"), .syntax, "'--' inside a comment", 3, 8),
        Case(
            "NUL in a point's text", gpx("<wpt lat=\"1\" lon=\"2\"><time>2024\u{0}-01-01T00:00:00Z</time></wpt>"), .forbiddenCharacter,
            "the control character U+0000 (byte 5 of the text of <time>) is not allowed in XML", 3, 28),
        Case(
            "a form feed in a point's text", gpx("<wpt lat=\"1\" lon=\"2\"><ele>1\u{C}</ele></wpt>"), .forbiddenCharacter,
            "the control character U+000C (byte 2 of the text of <ele>) is not allowed in XML", 3, 27),
        Case(
            "invalid UTF-8 in a point's text", gpx("<wpt lat=\"1\" lon=\"2\"><ele>1") + [0xC3, 0x28] + Array("</ele></wpt>".utf8),
            .invalidUTF8, "invalid UTF-8 at byte 2 of the text of <ele>", 3, 27),
    ]

    static func gpx(_ body: String) -> [UInt8] { prolog + Array(body.utf8) }

    @Test(arguments: cases, [7, 13, GPXReader.defaultBufferSize])
    func malformedInputFailsWithALocatedError(_ c: Case, bufferSize: Int) throws {
        let error = try #require(gpxError(c.bytes, bufferSize: bufferSize))
        #expect(error.code == c.code)
        #expect(error.message == c.message)
        #expect(error.location == SourceLocation(file: "bad.gpx", line: c.line, column: c.column))
        #expect(error.description == "bad.gpx:\(c.line):\(c.column): \(c.message)")
    }

    @Test func errorsAreSticky() throws {
        var reader = GPXReader(bytes: Self.gpx("<wpt lat=\"1\" lon=\"2\"/><wpt lat=\"x\" lon=\"2\"/>"), name: "bad.gpx")
        #expect(try reader.nextPoint() != nil)
        let first = #expect(throws: GPXError.self) { try reader.nextPoint() }
        let second = #expect(throws: GPXError.self) { try reader.nextPoint() }
        #expect(first == second)
        #expect(first?.code == .badNumber)
    }

    @Test func aMissingFileFailsToOpen() {
        let error = #expect(throws: GPXError.self) { try GPXReader(path: "/nonexistent/track.gpx") }
        #expect(error?.code == .openFailed)
        #expect(error?.description == "/nonexistent/track.gpx:1:1: cannot open: No such file or directory")
    }

    @Test func nestingDeeperThanTheLimitIsRefused() {
        let deep = "<gpx>" + String(repeating: "<a>", count: 5000)
        let error = gpxError(Array(deep.utf8))
        #expect(error?.code == .tooLong)
        #expect(error?.message == "elements nested deeper than 1024 levels")
        #expect(error?.location.column == 6 + 1023 * 3)
    }

    @Test func aTagLongerThanTheLimitIsRefused() {
        let huge = "<gpx creator=\"" + String(repeating: "x", count: 2 << 20) + "\"/>"
        let error = gpxError(Array(huge.utf8), bufferSize: 64 * 1024)
        #expect(error?.code == .tooLong)
        #expect(error?.location.line == 1)
    }
}
