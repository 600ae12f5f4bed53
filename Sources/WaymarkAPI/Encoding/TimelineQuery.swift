import Hummingbird
import WaymarkCore
import WaymarkDevices
import WaymarkTimelineJob

/// `GET /v1/timeline`'s parameters: `device` (default `local`) and either `day` (YYYY-MM-DD,
/// the device's local day) or the range `from` ≤ time < `to` (RFC 3339, at most
/// `maximumDays` long). Every refusal is a 400 naming the parameter.
struct TimelineQuery: Sendable, Equatable {
    var request: TimelineRequest

    /// The longest range one request may ask: a month at 1 Hz is about 2.6 million fixes.
    static let maximumDays = 31

    init(_ parameters: Parameters) throws(APIError) {
        for (name, _) in parameters where !["device", "day", "from", "to"].contains(name) {
            throw .invalidParameter(String(name), "unknown parameter; /v1/timeline takes device, day, from and to")
        }
        let device = parameters.get("device") ?? "local"
        if let problem = DeviceName.problem(with: device) { throw .invalidParameter("device", problem) }
        let from = try parameters.time("from")
        let to = try parameters.time("to")
        if let text = parameters.get("day") {
            guard from == nil, to == nil else {
                throw .invalidParameter("day", "give either day or from and to, not both")
            }
            do {
                request = TimelineRequest(device: device, range: .day(try TimelineDay(text)))
            } catch {
                throw .invalidParameter("day", error.message)
            }
            return
        }
        guard let from else {
            let missing = to == nil ? "day" : "from"
            throw .invalidParameter(missing, "missing: give day=YYYY-MM-DD, or from and to (RFC 3339)")
        }
        guard let to else { throw .invalidParameter("to", "missing: an RFC 3339 time after from") }
        guard from < to else { throw .invalidParameter("to", "must be after from (\(from.rfc3339))") }
        guard to.seconds(since: from) <= Double(Self.maximumDays) * 86_400 else {
            throw .invalidParameter("to", "the range may be at most \(Self.maximumDays) days long")
        }
        request = TimelineRequest(device: device, range: .between(from, to))
    }
}
