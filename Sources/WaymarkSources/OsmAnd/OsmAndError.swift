/// Why an OsmAnd request could not be decoded, naming the parameter at fault.
///
/// `description` is `field: message`, e.g. `lat: expected a number between -90 and 90, got "abc"`.
/// Values are quoted as they arrived, after percent-decoding. The `code` is stable; the
/// message may be reworded.
public struct OsmAndError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// A required parameter is absent: the device (`id`), the position, or `timestamp`.
        case missingParameter = "missing-parameter"
        /// A parameter given more than once.
        case repeatedParameter = "repeated-parameter"
        /// Two parameters that say the same thing (`id` and `deviceid`, `location` and `lat`…).
        case conflictingParameters = "conflicting-parameters"
        /// A value that does not parse (`lat=abc`, `valid=yes`, a timestamp in no known form).
        case invalidValue = "invalid-value"
        /// A number outside its range (`lat=91`, a negative speed).
        case outOfRange = "out-of-range"
        /// A `%` not followed by two hexadecimal digits, or bytes that are not UTF-8.
        case badEncoding = "bad-encoding"
    }

    public var code: Code
    /// The parameter's name, e.g. `lat`.
    public var field: String
    public var message: String

    public init(code: Code, field: String, message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}
