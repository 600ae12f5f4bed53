import WaymarkConfiguration
import Foundation

/// The API's bearer token (`api.token_file`, `--token-file`).
public enum APIToken {
    /// The file's first line, trimmed; an empty, short, unreadable or too open file is a
    /// configuration error (`SecretFile`).
    public static func read(from path: String) throws -> String {
        let token = try SecretFile.firstLine(of: path, key: "api.token_file")
        guard token.count >= 16 else {
            throw ConfigurationError(file: path, line: 1, key: "api.token_file", message: "the token must be at least 16 characters")
        }
        return token
    }
}

/// A file holding a secret (the API token, an output's signing secret). Like ssh with a private
/// key, Waymark refuses one that others may read or write (any group or other permission bit):
/// the secret would no longer be one. The fix is named in the message: `chmod 600 FILE`.
enum SecretFile {
    static func firstLine(of path: String, key: String) throws(ConfigurationError) -> String {
        var info = stat()
        guard stat(path, &info) == 0, let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ConfigurationError(file: path, key: key, message: "cannot read the file")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw ConfigurationError(
                file: path, key: key,
                message: "the file's permissions \(String(mode, radix: 8)) let others read it; a secret must be private: chmod 600 \(path)")
        }
        let line = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !line.isEmpty else { throw ConfigurationError(file: path, line: 1, key: key, message: "the first line is empty") }
        return line
    }
}
