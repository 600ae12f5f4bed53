/// Why a handler's query (`regionState`, `lastLocation`) has no answer. `code` is stable
/// (handlers match on it); `message` names what was asked for and what to do.
public struct HandlerQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The query named a device that is neither `local` nor in the devices table.
        public static let unknownDevice = Code(rawValue: "handler.unknown-device")
        /// The daemon could not read what the answer needs (a store failure).
        public static let unavailable = Code(rawValue: "handler.query-unavailable")
    }

    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `device` is not a device this daemon knows.
    public static func unknownDevice(_ device: String) -> HandlerQueryError {
        HandlerQueryError(
            code: .unknownDevice,
            message: "no device named '\(device)': ask for `local` (the gpsd receiver) or a device of `waymark devices list`")
    }

    public var description: String { "\(code): \(message)" }
}
