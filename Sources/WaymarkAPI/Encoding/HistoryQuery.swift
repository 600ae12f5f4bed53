import Hummingbird
import WaymarkCore
import WaymarkDevices

/// The query of `GET /v1/history` (and its shorthands): which entries, and in which format.
struct HistoryQuery: Sendable, Equatable {
    enum Format: String, Sendable {
        /// `{"items":[…]}`
        case json
        /// A GeoJSON FeatureCollection of Point features.
        case geojson
    }

    var request: HistoryRequest
    var format: Format

    /// Reads `from`, `to` (RFC 3339), `kind` (repeatable or comma separated; unless `presetKinds`
    /// fixes it), `device` (repeatable or comma separated: only these devices' entries), `limit`
    /// (integer ≥ 0) and `format`. Throws a 400 naming the parameter.
    init(_ parameters: Parameters, presetKinds: Set<String>? = nil) throws(APIError) {
        request = HistoryRequest()
        request.from = try parameters.time("from")
        request.to = try parameters.time("to")
        if let from = request.from, let to = request.to, to < from {
            throw .invalidParameter("to", "\(to.rfc3339) is before from \(from.rfc3339)")
        }
        if let presetKinds {
            guard parameters.get("kind") == nil else {
                throw .invalidParameter("kind", "this endpoint returns \(presetKinds.sorted().joined(separator: ", ")) only")
            }
            request.kinds = presetKinds
        } else {
            for value in parameters.getAll("kind") {
                for kind in value.split(separator: ",", omittingEmptySubsequences: false) {
                    let kind = String(kind)
                    guard HistoryEntry.kinds.contains(kind) else {
                        throw .invalidParameter("kind", "unknown kind \"\(kind)\"; expected fix, gap or event")
                    }
                    request.kinds.insert(kind)
                }
            }
        }
        request.devices = try Self.devices(parameters)
        if let text = parameters.get("limit") {
            guard let limit = Int(text), limit >= 0 else {
                throw .invalidParameter("limit", "\"\(text)\" is not a whole number ≥ 0")
            }
            request.limit = limit
        }
        let format = parameters.get("format") ?? "json"
        guard let parsed = Format(rawValue: format) else {
            throw .invalidParameter("format", "unknown format \"\(format)\"; expected json or geojson")
        }
        self.format = parsed
    }

    /// `device` (repeatable or comma separated), each a device name; nil when absent.
    static func devices(_ parameters: Parameters) throws(APIError) -> Set<String>? {
        let devices = parameters.getAll("device").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard !devices.isEmpty else { return nil }
        for device in devices {
            if let problem = DeviceName.problem(with: device) { throw .invalidParameter("device", problem) }
        }
        return Set(devices)
    }

    /// The response body for `entries` in this query's format.
    func body(_ entries: [HistoryEntry]) -> String {
        switch format {
        case .json:
            return "{\"items\":[" + entries.map(\.json).joined(separator: ",") + "]}"
        case .geojson:
            let features = entries.compactMap { entry -> String? in
                guard let c = entry.coordinate else { return nil }
                return "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":["
                    + JSONObjectWriter.number(c.longitude) + "," + JSONObjectWriter.number(c.latitude)
                    + "]},\"properties\":" + entry.json + "}"
            }
            return "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"
        }
    }
}
