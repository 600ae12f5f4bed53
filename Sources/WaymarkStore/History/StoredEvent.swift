import WaymarkCore
import WaymarkRegions

/// An event (a region transition, say) with the exact JSON Lines record printed for it.
///
/// The queryable columns (`kind`, `region`, `transition`, `coordinate`) are copies of what
/// `record` says; `record` is what `waymark history` prints, byte for byte, so history shows
/// events exactly as `waymark replay` printed them.
public struct StoredEvent: Sendable, Equatable {
    /// The row id in `events`; `nil` for an event not yet recorded (`recordEvent` ignores it).
    public var id: Int64?
    public var time: Timestamp
    /// The record's kind, e.g. `.region`.
    public var kind: EventKind
    /// The region's identifier, for region events.
    public var region: String?
    /// `enter`, `exit` or `dwell`, for region and beacon events.
    public var transition: RegionTransition.Kind?
    /// Where it happened, when the event has a position.
    public var coordinate: Coordinate?
    /// One compact JSON object on one line, e.g.
    /// `{"kind":"region","transition":"enter","region":"SAMO","time":"2008-08-21T13:57:20Z","latitude":34.1,"longitude":-118.7}`.
    public var record: String
    /// The device whose fixes caused it (docs/devices.md).
    public var device: String
    /// The import that computed or read it (docs/import.md); nil for live history.
    public var importID: Int64?

    public init(
        id: Int64? = nil, time: Timestamp, kind: EventKind, region: String? = nil, transition: RegionTransition.Kind? = nil,
        coordinate: Coordinate? = nil, record: String, device: String = "local", importID: Int64? = nil
    ) {
        self.device = device
        self.importID = importID
        self.id = id
        self.time = time
        self.kind = kind
        self.region = region
        self.transition = transition
        self.coordinate = coordinate
        self.record = record
    }

    /// The stored record with its device as the last member, then the import that made it
    /// (`"import":7`) for imported history: the pipeline's record (what `waymark replay` prints)
    /// stays byte for byte what it was, and history, the API and the live stream say whose event
    /// it is and whether it is the past brought in.
    public var jsonLine: String {
        guard record.hasSuffix("}") else { return record }
        let separator = record == "{}" ? "" : ","
        let imported = importID.map { ",\"import\":\($0)" } ?? ""
        return record.dropLast() + separator + "\"device\":" + JSONObjectWriter.quoted(device) + imported + "}"
    }

    /// `jsonLine` with the row id as the last member (`…,"device":"local","id":412}`), as the API
    /// and its stream serve events: the id `GET /v1/events/{id}/explain` takes (docs/explain.md).
    /// `jsonLine` itself when the event has no id yet.
    public var jsonLineWithID: String {
        let line = jsonLine
        guard let id, line.hasSuffix("}") else { return line }
        return line.dropLast() + (line == "{}" ? "" : ",") + "\"id\":\(id)}"
    }
}
