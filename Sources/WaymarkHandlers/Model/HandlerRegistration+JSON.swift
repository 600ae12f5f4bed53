import Foundation

extension HandlerRegistration {
    /// The registration as stored: JSON with sorted keys.
    public func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    public static func decode(_ json: String) throws -> HandlerRegistration {
        try JSONDecoder().decode(HandlerRegistration.self, from: Data(json.utf8))
    }
}
