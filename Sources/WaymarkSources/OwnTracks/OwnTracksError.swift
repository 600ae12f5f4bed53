/// Why an OwnTracks request body could not be decoded, naming the member at fault.
///
/// `description` is `field: message`, e.g. `lat: expected a number between -90 and 90, got 91.5`
/// or `[1].tst: missing (a location needs a time)` for the second message of a batch. The
/// `code` is stable (callers and tests match on it); the message is for people and may be
/// reworded. `line` and `column` (1-based, columns in Unicode scalars) point at the offending
/// value, or at the syntax error, in the body.
public struct OwnTracksError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// The body has no bytes, or only whitespace.
        case emptyBody = "empty-body"
        /// The body is not valid JSON (RFC 8259).
        case jsonSyntax = "json-syntax"
        /// The body, or an element of a batch, is not a JSON object.
        case notAnObject = "not-an-object"
        /// A message without a `_type`.
        case missingType = "missing-type"
        /// A member the message kind requires (`lat`, `tst`, `event`, …) is absent.
        case missingMember = "missing-member"
        /// A member of the wrong JSON type (`acc` as a string, say).
        case wrongType = "wrong-type"
        /// A number outside its range (`lat` 91, a negative `vel`, a time past 2262).
        case outOfRange = "out-of-range"
        /// A value of the right type that is not allowed (`event` "exit", a malformed `uuid`).
        case invalidValue = "invalid-value"
        /// A member given twice in one object: which one counts would be a guess.
        case repeatedMember = "repeated-member"
    }

    public var code: Code
    /// Path of the offending member: `lat` in a single-message body, `[2].lat` in a batch,
    /// `waypoints[0].rad` inside a waypoints list; empty for the body itself.
    public var field: String
    public var message: String
    public var line: Int
    public var column: Int

    public init(code: Code, field: String, message: String, line: Int, column: Int) {
        self.code = code
        self.field = field
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String { field.isEmpty ? message : "\(field): \(message)" }
}
