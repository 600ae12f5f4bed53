#if canImport(Glibc)
import Glibc
#endif

/// A failure the user can act on; ArgumentParser prints it as `Error: …` and exits with 1.
struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Writes a line to standard error.
func printError(_ line: String) {
    writeStandardError(line + "\n")
}

/// Writes text to file descriptor 2 unbuffered.
func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}
