import WaymarkCore

/// Why a timeline could not be given: what was asked that cannot be answered. `code` is stable
/// (the CLI's exit message and the API's 400/404 match on it); `message` says what to do.
public struct TimelineError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// No such device: not the local one, not registered, no history.
        public static let unknownDevice = Code(rawValue: "timeline.unknown-device")
        /// `from` is not before `to`.
        public static let emptyRange = Code(rawValue: "timeline.empty-range")
        /// A `--day` that is not a calendar date `YYYY-MM-DD`.
        public static let invalidDay = Code(rawValue: "timeline.invalid-day")
        /// A time zone that is not an IANA name this system knows.
        public static let unknownTimeZone = Code(rawValue: "timeline.unknown-time-zone")
    }

    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    static func unknownDevice(_ name: String) -> TimelineError {
        TimelineError(code: .unknownDevice, message: "no device '\(name)': it is not registered and has no history")
    }

    static func emptyRange(from: Timestamp, to: Timestamp) -> TimelineError {
        TimelineError(code: .emptyRange, message: "the range is empty: from \(from.rfc3339) is not before to \(to.rfc3339)")
    }

    static func invalidDay(_ text: String) -> TimelineError {
        TimelineError(code: .invalidDay, message: "'\(text)' is not a day: give a calendar date as YYYY-MM-DD, e.g. 2026-05-02")
    }

    static func unknownTimeZone(_ name: String) -> TimelineError {
        TimelineError(code: .unknownTimeZone, message: "'\(name)' is not a time zone: give an IANA name such as Europe/Berlin or UTC")
    }
}
