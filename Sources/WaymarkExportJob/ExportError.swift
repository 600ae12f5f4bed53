/// Why an export could not be made. Input errors of the readers (`GPXError` with
/// `file:line:column`, `GeoJSONError`, `StoreError`) pass through unchanged; this covers the rest.
public struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// The output file cannot be created, written or moved into place.
        case output
        /// The input has no points in the range asked for.
        case emptyTrack
        /// The input is missing (no database there).
        case input
        /// The input changed between the two passes (a daemon writing or pruning the history).
        case inputChanged
        /// Drawing the picture failed.
        case render
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
