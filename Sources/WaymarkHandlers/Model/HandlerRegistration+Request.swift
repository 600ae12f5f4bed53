import Foundation

extension HandlerRegistration {
    /// A registration from an API request body, or `HandlerError.invalidRegistration` naming
    /// the field that is missing or of the wrong type (`subscription.regions: expected an array`).
    public static func fromRequest(_ body: [UInt8]) throws(HandlerError) -> HandlerRegistration {
        do {
            return try JSONDecoder().decode(HandlerRegistration.self, from: Data(body))
        } catch let error as DecodingError {
            throw .invalidRegistration(describe(error))
        } catch {
            throw .invalidRegistration("the body is not a JSON object: \(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "\(parent.isEmpty ? "" : parent + ".")\(key.stringValue): missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\(path(context)): expected \(type)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the body is not valid JSON" : "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
