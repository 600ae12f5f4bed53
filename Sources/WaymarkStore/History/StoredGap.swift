import WaymarkCore

/// A stretch without fixes, as the history holds it.
public struct StoredGap: Sendable, Equatable {
    /// The row id in `gaps`.
    public var id: Int64
    /// When the gap began (gpsd reported no fix, or the source went away).
    public var time: Timestamp
    /// Why there was no fix, e.g. `no-fix` (gpsd mode 0/1) or `disconnected`.
    public var reason: String
    public var source: String
    /// The device it came from (docs/devices.md).
    public var device: String

    public init(id: Int64, time: Timestamp, reason: String, source: String, device: String = "local") {
        self.id = id
        self.time = time
        self.reason = reason
        self.source = source
        self.device = device
    }

    /// `{"kind":"gap","time":…,"reason":…,"source":…}`.
    public var jsonLine: String {
        var json = JSONObjectWriter()
        json.add("kind", "gap")
        json.add("time", time.rfc3339)
        json.add("reason", reason)
        json.add("source", source)
        json.add("device", device)
        return json.object
    }
}
