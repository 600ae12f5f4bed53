import WaymarkCore
import WaymarkSources

/// What the KML and TCX readers share: a scanner, the error that stopped them (thrown again
/// by every later call), and the scanner's errors turned into import errors.
///
/// The reader walks the document's markup and hands each start and end tag to the format,
/// which returns a fix when one is complete; at the end of the document the format checks that
/// it found something. The format's methods throw the scanner's `GPXError`s or `ImportError`s.
protocol XMLHistoryFormat {
    /// The root element's local name.
    static var root: StaticString { get }
    var scanner: XMLScanner { get set }
    var state: XMLDocumentState { get set }
    /// Acts on the start tag just read (and may read through its end tag).
    mutating func open() throws -> Fix?
    /// Acts on the end tag just read.
    mutating func close() throws -> Fix?
    /// At the end of the document.
    func finish() throws
}

/// How far a reader has got through its document.
enum XMLDocumentState: Sendable {
    case beforeRoot
    case reading
    case finished
    case failed(ImportError)
}

extension XMLHistoryFormat {
    mutating func nextFix() throws(ImportError) -> Fix? {
        let failure: ImportError
        do {
            return try readNext()
        } catch let error as ImportError {
            failure = error
        } catch let error as GPXError {
            failure = ImportError(error, file: scanner.fileName)
        } catch {
            failure = ImportError(.syntax, "\(error)", file: scanner.fileName)
        }
        state = .failed(failure)
        throw failure
    }

    private mutating func readNext() throws -> Fix? {
        switch state {
        case .failed(let failure): throw failure
        case .finished: return nil
        case .beforeRoot:
            try scanner.openRoot(Self.root)
            state = .reading
        case .reading: break
        }
        while true {
            switch try scanner.nextMarkup() {
            case .endOfInput:
                state = .finished
                try finish()
                return nil
            case .end:
                if let fix = try close() { return fix }
            case .start:
                if let fix = try open() { return fix }
            }
        }
    }
}
