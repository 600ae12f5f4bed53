#if canImport(Glibc)
import Glibc
#endif

/// Whether the standard streams are terminals, which decides defaults such as pacing and progress.
enum Terminal {
    static var standardOutputIsTerminal: Bool { isatty(1) == 1 }
    static var standardErrorIsTerminal: Bool { isatty(2) == 1 }

    /// Rewrites the current line of standard error (progress), or ends it when `text` is nil.
    static func status(_ text: String?) {
        let line = text.map { "\r\u{1B}[2K" + $0 } ?? "\r\u{1B}[2K"
        writeStandardError(line)
    }
}
