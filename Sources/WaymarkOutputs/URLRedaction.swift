/// An output's URL as listings, the API and logs show it (docs/outputs.md): a password in it
/// (`https://user:pass@host/…`) and the values of query parameters whose names look secret
/// (`token`, `key`, `secret`, `password`, `apikey`, `access_token`, `sig`…) become `***`; the
/// rest is left as written. The stored URL keeps them: deliveries need them.
public enum URLRedaction {
    public static let mask = "***"

    public static func redacted(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let authorityEnd = url[schemeEnd.upperBound...].firstIndex { "/?#".contains($0) } ?? url.endIndex
        var authority = url[schemeEnd.upperBound..<authorityEnd]
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            authority = authority[...colon] + mask + authority[at...]
        }
        var path = url[authorityEnd...]
        var fragment: Substring = ""
        if let hash = path.firstIndex(of: "#") {
            fragment = path[hash...]
            path = path[..<hash]
        }
        var query = ""
        if let question = path.firstIndex(of: "?") {
            query = "?" + path[path.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { parameter in
                guard let equals = parameter.firstIndex(of: "="), parameter.index(after: equals) < parameter.endIndex,
                    isSecret(name: parameter[..<equals])
                else { return parameter }
                return parameter[...equals] + mask
            }.joined(separator: "&")
            path = path[..<question]
        }
        return url[..<schemeEnd.upperBound] + authority + path + query + fragment
    }

    /// Whether a query parameter's name looks like it holds a credential (any case, `-` as `_`).
    public static func isSecret(name: Substring) -> Bool {
        let name = String(name.lowercased().map { $0 == "-" ? "_" : $0 })
        if ["key", "pass", "pwd", "sig", "jwt"].contains(name) || name.hasSuffix("key") { return true }
        return ["token", "secret", "passw", "apikey", "api_key", "auth", "signature", "credential", "session"].contains { name.contains($0) }
    }
}
