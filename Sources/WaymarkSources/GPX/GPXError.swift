import WaymarkCore

/// Why a GPX file could not be read, and where: `file:line:column: message`.
///
/// The `code` is stable (tests and callers match on it); the `message` is for people and may
/// be reworded. Lines and columns are 1-based; columns count Unicode scalars, so they match
/// what an editor shows for UTF-8 text.
public struct GPXError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Equatable {
        /// The file has no bytes (or only a byte order mark).
        case emptyFile
        /// The document does not start with markup (`<`): not XML at all.
        case notXML
        /// The XML declaration names an encoding other than UTF-8, or the file is UTF-16.
        case unsupportedEncoding
        /// Malformed markup: a bad character in a tag, a missing `=` or quote, text or a second
        /// element after the root element, and so on.
        case syntax
        /// The file ends inside a tag, comment, or element that is still open (truncated file).
        case unexpectedEndOfFile
        /// An end tag does not match the innermost open element.
        case mismatchedEndTag
        /// A name (element or attribute) or a text is not valid UTF-8.
        case invalidUTF8
        /// A character XML does not allow (a control character other than tab, newline and
        /// carriage return, NUL included) in text.
        case forbiddenCharacter
        /// The DOCTYPE declares entities; they are refused (no entity expansion at all).
        case entityDeclaration
        /// A reference to an entity other than the five predefined ones, or a malformed one.
        case undefinedEntity
        /// A numeric character reference to something that is not an XML character.
        case badCharacterReference
        /// The root element is not `gpx`.
        case notGPX
        /// The `version` attribute is neither 1.0 nor 1.1.
        case unsupportedVersion
        /// A `wpt`, `trkpt` or `rtept` lacks its `lat` or `lon` attribute.
        case missingAttribute
        /// A number (`lat`, `lon`, `ele`, dilutions, `sat`, …) is not a valid decimal number.
        case badNumber
        /// `lat` is outside −90…90 degrees.
        case latitudeOutOfRange
        /// `lon` is outside −180…180 degrees.
        case longitudeOutOfRange
        /// `time` is not an RFC 3339 / xsd:dateTime instant.
        case badTime
        /// A value outside its enumeration (`fix` other than none, 2d, 3d, dgps, pps).
        case badValue
        /// An element where only text may appear (a child element inside `<ele>`).
        case unexpectedElement
        /// A single tag or kept text is longer than the reader's limit (1 MiB by default).
        case tooLong
        /// The file could not be opened.
        case openFailed
        /// Reading the file failed.
        case readFailed
    }

    public var code: Code
    public var message: String
    public var location: SourceLocation

    public init(code: Code, message: String, location: SourceLocation) {
        self.code = code
        self.message = message
        self.location = location
    }

    /// `file:line:column: message`, e.g. `tcx.gpx:12:34: latitude 91.5 is outside -90…90`.
    public var description: String { "\(location): \(message)" }
}
