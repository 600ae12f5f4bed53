import WaymarkSources

extension ImportError {
    /// The import error for an error of the XML scanner or the GPX reader, at the same line
    /// and column, under the input's name `file` (an archive's entry is read from an inflated
    /// copy whose path is not the name the user knows).
    init(_ error: GPXError, file: String) {
        let code: Code
        switch error.code {
        case .notXML, .notGPX: code = .unknownFormat
        case .unexpectedEndOfFile: code = .truncated
        case .unsupportedEncoding, .unsupportedVersion, .entityDeclaration: code = .unsupported
        case .missingAttribute, .badNumber, .latitudeOutOfRange, .longitudeOutOfRange, .badTime, .badValue:
            code = .invalidValue
        case .openFailed, .readFailed: code = .io
        case .emptyFile, .syntax, .mismatchedEndTag, .invalidUTF8, .forbiddenCharacter, .undefinedEntity,
            .badCharacterReference, .unexpectedElement, .tooLong:
            code = .syntax
        }
        let position: Position =
            error.code == .openFailed ? .none : .line(error.location.line, column: error.location.column)
        self.init(code, error.message, file: file, position: position)
    }
}
