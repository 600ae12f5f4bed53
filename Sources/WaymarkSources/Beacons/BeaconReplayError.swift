import WaymarkCore

/// Why a beacon replay file could not be read, and where: `file:line:column: field: message`.
public struct BeaconReplayError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// The file cannot be opened or read.
        case unreadable
        /// A line is not one JSON object.
        case jsonSyntax
        /// A required field is absent.
        case missingField
        /// A field has the wrong type or is out of range.
        case invalidField
        /// A field the format does not have.
        case unknownField
        /// A time earlier than the line before's.
        case timeGoesBackwards
    }

    public var code: Code
    public var message: String
    /// Where; column 1 of line 0 for a file that cannot be opened.
    public var location: SourceLocation
    /// The offending field, when there is one.
    public var field: String?

    public init(code: Code, message: String, location: SourceLocation, field: String? = nil) {
        self.code = code
        self.message = message
        self.location = location
        self.field = field
    }

    public var description: String {
        if code == .unreadable { return "\(location.file): \(message)" }
        return "\(location): " + (field.map { "\($0): " } ?? "") + message
    }
}
