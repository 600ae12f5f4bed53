import Foundation

/// The bearer token TCP clients of the API must present, read from `api.token_file`.
enum APIToken {
    /// The file's first line, trimmed; an empty or unreadable file is a configuration error.
    static func read(from path: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ConfigurationError(file: path, key: "api.token_file", message: "cannot read the token file")
        }
        let token = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard token.count >= 16 else {
            throw ConfigurationError(file: path, line: 1, key: "api.token_file", message: "the token must be at least 16 characters")
        }
        return token
    }
}
