/// An event `waymark explain` cannot explain. `code` is stable; the message names the event and
/// what to do.
public struct ExplainError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// Not a region or beacon transition (a fix, a visit, a gap…): no rule decided it.
        case notExplainable = "not-explainable"
        /// The stored record is not the JSON object Waymark writes.
        case unreadableRecord = "unreadable-record"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
