import WaymarkCore

/// A fix as the history holds it: always timed, with its row id and where it came from.
public struct StoredFix: Sendable, Equatable {
    /// The row id in `fixes`, increasing in recording order.
    public var id: Int64
    public var fix: Fix
    /// The source that produced it, e.g. `gpsd:127.0.0.1:2947` or `replay:ride.gpx`.
    public var source: String
    /// The device it came from (docs/devices.md).
    public var device: String

    public init(id: Int64, fix: Fix, source: String, device: String = "local") {
        self.id = id
        self.fix = fix
        self.source = source
        self.device = device
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
        json.add("device", device)
        return json.object
    }
}
