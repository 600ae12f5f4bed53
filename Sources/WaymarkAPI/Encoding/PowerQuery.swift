import Hummingbird
import WaymarkCore

/// The query of `GET /v1/power`: `since` (RFC 3339; the hour holding it and later ones) and
/// `by` (`radio`, the default, or `handler`). Anything else is a 400 naming the parameter.
struct PowerQuery: Sendable, Equatable {
    var since: Timestamp?
    var by: EnergyReport.Grouping

    init(_ parameters: Parameters) throws(APIError) {
        since = try parameters.time("since")
        let by = parameters.get("by") ?? EnergyReport.Grouping.radio.rawValue
        guard let grouping = EnergyReport.Grouping(rawValue: by) else {
            throw .invalidParameter("by", "\"\(by)\" is not radio or handler")
        }
        self.by = grouping
        for (name, _) in parameters where name != "since" && name != "by" {
            throw .invalidParameter(String(name), "unknown parameter; /v1/power takes since and by")
        }
    }
}
