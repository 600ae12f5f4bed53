/// Why a history file could not be read (or not all of it), and where: a line and column for
/// text, a byte offset for binary data. Stable `code`s for programs; a message for people.
public struct ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// The content is none of the formats Waymark reads.
        case unknownFormat = "unknown-format"
        /// The bytes break the format's syntax (JSON, XML, CSV, FIT records…).
        case syntax
        /// The input ended inside a value: what came before it was read.
        case truncated
        /// A well-formed input Waymark cannot use (a KML `LineString` without times, a FIT file
        /// with no positions).
        case unsupported
        /// A value is out of range or of the wrong kind (a latitude of 123, a time of "soon").
        case invalidValue = "invalid-value"
        /// An archive's structure or compressed data is damaged.
        case archive
        /// The file could not be opened or read.
        case io
    }

    /// Where in the input.
    public enum Position: Sendable, Equatable {
        case line(Int, column: Int)
        case byteOffset(Int)
        case none
    }

    public var code: Code
    public var message: String
    /// The input's name: a path, or `archive.zip:inner/path.json` for an archive's entry.
    public var file: String
    public var position: Position

    public init(_ code: Code, _ message: String, file: String, position: Position = .none) {
        self.code = code
        self.message = message
        self.file = file
        self.position = position
    }

    /// `file:line:column: message`, `file: byte N: message` or `file: message`.
    public var description: String {
        switch position {
        case .line(let line, let column): "\(file):\(line):\(column): \(message)"
        case .byteOffset(let offset): "\(file): byte \(offset): \(message)"
        case .none: "\(file): \(message)"
        }
    }
}
