import Hummingbird
import WaymarkCore

/// The query of `GET /v1/power`: `since` (RFC 3339; the hour holding it and later ones) and
/// `by` (`radio`, the default, or `handler`); or `device` for that phone's estimate (with `since`,
/// not `by`). Anything else is a 400 naming the parameter.
struct PowerQuery: Sendable, Equatable {
    var since: Timestamp?
    var by: EnergyReport.Grouping
    var device: String?

    init(_ parameters: Parameters) throws(APIError) {
        since = try parameters.time("since")
        let by = parameters.get("by") ?? EnergyReport.Grouping.radio.rawValue
        guard let grouping = EnergyReport.Grouping(rawValue: by) else {
            throw .invalidParameter("by", "\"\(by)\" is not radio or handler")
        }
        self.by = grouping
        device = parameters.get("device")
        if device?.isEmpty == true { throw .invalidParameter("device", "names a device") }
        if device != nil, parameters.get("by") != nil {
            throw .invalidParameter("by", "a device's estimate is by radio and mode; by groups the daemon's own ledger")
        }
        for (name, _) in parameters where !["since", "by", "device"].contains(name) {
            throw .invalidParameter(String(name), "unknown parameter; /v1/power takes since, by and device")
        }
    }
}
