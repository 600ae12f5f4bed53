import WaymarkCore

/// Why an NMEA 0183 or gpsd JSON log could not be replayed, and where:
/// `file:line:column: message`. The `code` is stable; the message is for people.
public struct TrackLogError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// The file cannot be opened or read.
        case unreadable
        /// The file is empty, or holds no line of the format (no `$` sentence, no `{` report).
        case noData
        /// A line longer than ``LineFile/maximumLineLength``.
        case tooLong
        /// An NMEA sentence's checksum is malformed or does not match its characters.
        case badChecksum
        /// An NMEA sentence has a character that is not printable ASCII.
        case badCharacter
        /// A field the reader uses is malformed or out of range (a latitude of 91°, minutes of
        /// 60, a time of 25:00, a date of 31 February).
        case badField
        /// A gpsd log line that starts like JSON but is not one JSON object, or a TPV or SKY
        /// report not in gpsd's shape.
        case badJSON
    }

    public var code: Code
    public var message: String
    /// Where; line 0 for a file that cannot be opened.
    public var location: SourceLocation

    public init(code: Code, message: String, location: SourceLocation) {
        self.code = code
        self.message = message
        self.location = location
    }

    public var description: String {
        location.line == 0 ? "\(location.file): \(message)" : "\(location): \(message)"
    }
}
