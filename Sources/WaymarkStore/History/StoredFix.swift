import WaymarkCore

/// A fix as the history holds it: always timed, with its row id and where it came from.
public struct StoredFix: Sendable, Equatable {
    /// The row id in `fixes`, increasing in recording order.
    public var id: Int64
    public var fix: Fix
    /// The source that produced it, e.g. `gpsd:127.0.0.1:2947` or `replay:ride.gpx`.
    public var source: String

    public init(id: Int64, fix: Fix, source: String) {
        self.id = id
        self.fix = fix
        self.source = source
    }

    /// When the fix was measured (stored fixes always have a time).
    public var time: Timestamp { fix.time ?? Timestamp(nanosecondsSince1970: 0) }

    /// The JSON Lines record `waymark history` prints: `{"kind":"fix","time":…,"latitude":…,
    /// "longitude":…,` then the metadata the source reported (`altitude`, `horizontalAccuracy`,
    /// `verticalAccuracy`, `latitudeAccuracy` (epy), `longitudeAccuracy` (epx), `hdop`, `vdop`,
    /// `pdop`, `satellites`, `mode`, `speed`, `course`, in that order, absent ones left out),
    /// then `"source":…}`.
    public var jsonLine: String {
        var json = JSONObjectWriter()
        json.add("kind", "fix")
        json.add("time", time.rfc3339)
        json.add("latitude", fix.coordinate.latitude)
        json.add("longitude", fix.coordinate.longitude)
        if let value = fix.altitude { json.add("altitude", value) }
        if let value = fix.horizontalAccuracy { json.add("horizontalAccuracy", value) }
        if let value = fix.verticalAccuracy { json.add("verticalAccuracy", value) }
        if let value = fix.latitudeAccuracy { json.add("latitudeAccuracy", value) }
        if let value = fix.longitudeAccuracy { json.add("longitudeAccuracy", value) }
        if let value = fix.hdop { json.add("hdop", value) }
        if let value = fix.vdop { json.add("vdop", value) }
        if let value = fix.pdop { json.add("pdop", value) }
        if let value = fix.satellites { json.add("satellites", value) }
        if let value = fix.mode { json.add("mode", value.rawValue) }
        if let value = fix.speed { json.add("speed", value) }
        if let value = fix.course { json.add("course", value) }
        json.add("source", source)
        return json.object
    }
}

/// A stretch without fixes, as the history holds it.
public struct StoredGap: Sendable, Equatable {
    /// The row id in `gaps`.
    public var id: Int64
    /// When the gap began (gpsd reported no fix, or the source went away).
    public var time: Timestamp
    /// Why there was no fix, e.g. `no-fix` (gpsd mode 0/1) or `disconnected`.
    public var reason: String
    public var source: String

    public init(id: Int64, time: Timestamp, reason: String, source: String) {
        self.id = id
        self.time = time
        self.reason = reason
        self.source = source
    }

    /// `{"kind":"gap","time":…,"reason":…,"source":…}`.
    public var jsonLine: String {
        var json = JSONObjectWriter()
        json.add("kind", "gap")
        json.add("time", time.rfc3339)
        json.add("reason", reason)
        json.add("source", source)
        return json.object
    }
}

/// An event (a region transition, say) with the exact JSON Lines record printed for it.
///
/// The queryable columns (`kind`, `region`, `transition`, `coordinate`) are copies of what
/// `record` says; `record` is what `waymark history` prints, byte for byte, so history shows
/// events exactly as `waymark replay` printed them.
public struct StoredEvent: Sendable, Equatable {
    /// The row id in `events`; `nil` for an event not yet recorded (`recordEvent` ignores it).
    public var id: Int64?
    public var time: Timestamp
    /// The record's kind, e.g. `region`.
    public var kind: String
    /// The region's identifier, for region events.
    public var region: String?
    /// `enter`, `exit`, …, for region events.
    public var transition: String?
    /// Where it happened, when the event has a position.
    public var coordinate: Coordinate?
    /// One compact JSON object on one line, e.g.
    /// `{"kind":"region","transition":"enter","region":"SAMO","time":"2008-08-21T13:57:20Z","latitude":34.1,"longitude":-118.7}`.
    public var record: String

    public init(
        id: Int64? = nil, time: Timestamp, kind: String, region: String? = nil, transition: String? = nil,
        coordinate: Coordinate? = nil, record: String
    ) {
        self.id = id
        self.time = time
        self.kind = kind
        self.region = region
        self.transition = transition
        self.coordinate = coordinate
        self.record = record
    }

    /// The stored record, verbatim.
    public var jsonLine: String { record }
}
