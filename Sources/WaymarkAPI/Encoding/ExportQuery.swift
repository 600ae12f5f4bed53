import Hummingbird
import WaymarkCore
import WaymarkDevices

/// `GET /v1/export`'s parameters: `format` (gpx, geojson, kml, svg, png, or stats for the
/// statistics `waymark stats --json` prints), `device` (default `local`), and the range
/// `from` ≤ time < `to`, as `waymark export --db` takes them.
struct ExportQuery: Sendable, Equatable {
    var request: ExportRequest

    init(_ parameters: Parameters) throws(APIError) {
        for (name, _) in parameters where !["format", "device", "from", "to"].contains(name) {
            throw .invalidParameter(String(name), "unknown parameter; /v1/export takes format, device, from and to")
        }
        guard let text = parameters.get("format") else { throw .invalidParameter("format", "missing: one of \(Self.formats)") }
        guard let format = ExportRequest.Format(rawValue: text) else {
            throw .invalidParameter("format", "\"\(text)\" is not one of \(Self.formats)")
        }
        let device = parameters.get("device") ?? "local"
        if let problem = DeviceName.problem(with: device) { throw .invalidParameter("device", problem) }
        let from = try parameters.time("from")
        let to = try parameters.time("to")
        if let from, let to, !(from < to) {
            throw .invalidParameter("to", "must be after from (\(from.rfc3339))")
        }
        request = ExportRequest(format: format, device: device, from: from, to: to)
    }

    static let formats = ExportRequest.Format.allCases.map(\.rawValue).joined(separator: ", ")
}

/// One export of a device's history through the export code (`waymark export --db`).
public struct ExportRequest: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable {
        case gpx, geojson, kml, svg, png, stats

        public var contentType: String {
            switch self {
            case .gpx: "application/gpx+xml"
            case .geojson: "application/geo+json"
            case .kml: "application/vnd.google-earth.kml+xml"
            case .svg: "image/svg+xml"
            case .png: "image/png"
            case .stats: "application/json"
            }
        }
    }

    public var format: Format
    public var device: String
    public var from: Timestamp?
    public var to: Timestamp?

    public init(format: Format, device: String = "local", from: Timestamp? = nil, to: Timestamp? = nil) {
        self.format = format
        self.device = device
        self.from = from
        self.to = to
    }
}
