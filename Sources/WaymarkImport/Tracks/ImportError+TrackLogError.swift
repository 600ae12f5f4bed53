import WaymarkSources

extension ImportError {
    /// The import error for an NMEA or gpsd log reader's error, at the same line and column,
    /// under the input's name `file`.
    init(_ error: TrackLogError, file: String) {
        let code: Code
        switch error.code {
        case .unreadable: code = .io
        case .noData: code = .unknownFormat
        case .tooLong, .badChecksum, .badCharacter, .badJSON: code = .syntax
        case .badField: code = .invalidValue
        }
        let position: Position =
            error.location.line == 0 ? .none : .line(error.location.line, column: error.location.column)
        self.init(code, error.message, file: file, position: position)
    }
}
