import Foundation

extension DecodingError {
    /// Where and what, e.g. `rows[2].joules: expected a number`.
    var field: String {
        let (context, problem): (Context, String) =
            switch self {
            case .typeMismatch(let type, let context): (context, "expected \(type)")
            case .valueNotFound(let type, let context): (context, "missing \(type)")
            case .keyNotFound(let key, let context): (context, "missing key '\(key.stringValue)'")
            case .dataCorrupted(let context): (context, context.debugDescription)
            @unknown default: (Context(codingPath: [], debugDescription: ""), "\(self)")
            }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        let trimmed = path.hasPrefix(".") ? String(path.dropFirst()) : path
        return trimmed.isEmpty ? problem : "\(trimmed): \(problem)"
    }
}
