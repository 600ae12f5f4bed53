/// A field of an output's definition that is wrong (`url`, `kinds`, …): the API answers 400
/// naming it, the CLI and the configuration name their option or key.
public struct OutputFieldError: Error, Sendable, Equatable {
    public var field: String
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}
