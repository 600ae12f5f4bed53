import Hummingbird
import WaymarkCore

extension Parameters {
    /// The RFC 3339 time in query parameter `name`, nil when absent; a 400 naming the
    /// parameter when it is not a time.
    func time(_ name: String) throws(APIError) -> Timestamp? {
        guard let text = get(name) else { return nil }
        guard let time = Timestamp(rfc3339: text) else {
            throw .invalidParameter(name, "\"\(text)\" is not an RFC 3339 time such as 2024-05-01T12:00:00Z")
        }
        return time
    }
}
