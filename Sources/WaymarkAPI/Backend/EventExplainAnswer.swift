/// Why a stored event happened, as `GET /v1/events/{id}/explain` answers it (docs/explain.md):
/// the explanation's JSON object, and the same as text for terminals (`?format=text`).
public struct EventExplainAnswer: Sendable, Equatable {
    public var json: String
    public var text: String

    public init(json: String, text: String) {
        self.json = json
        self.text = text
    }
}
