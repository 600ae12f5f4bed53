import WaymarkCore

/// One output of a location service (docs/semantics.md §2), printed as a JSON Lines record by
/// `waymark replay` and recorded as an event by the daemon.
public struct LocationRecord: Sendable, Equatable {
    /// `location`, `significantChange`, `visit`, `paused`, `resumed`.
    public var kind: String
    public var time: Timestamp
    public var coordinate: Coordinate
    /// Further fields in order, already JSON values (numbers, quoted strings, objects).
    public var fields: [(String, String)]

    public init(kind: String, time: Timestamp, coordinate: Coordinate, fields: [(String, String)] = []) {
        self.kind = kind
        self.time = time
        self.coordinate = coordinate
        self.fields = fields
    }

    public static func == (a: LocationRecord, b: LocationRecord) -> Bool {
        a.kind == b.kind && a.time == b.time && a.coordinate == b.coordinate
            && a.fields.map { $0.0 + "=" + $0.1 } == b.fields.map { $0.0 + "=" + $0.1 }
    }

    /// `{"kind":…,"time":"…Z","latitude":…,"longitude":…, fields…}`.
    public var json: String {
        var writer = JSONObjectWriter()
        writer.add("kind", kind)
        writer.add("time", time.rfc3339)
        writer.add("latitude", coordinate.latitude)
        writer.add("longitude", coordinate.longitude)
        for (key, value) in fields { writer.addRaw(key, value) }
        return writer.object
    }
}

/// A location service: accepted fixes in time order, records out. Value types with no I/O.
public protocol LocationService: Sendable {
    mutating func process(_ fix: Fix) -> [LocationRecord]
    /// Records still pending at the end of the input (a deferred batch, an open visit's nothing).
    mutating func finish() -> [LocationRecord]
    /// What of this service's state must survive a restart (`ServiceMark`); nil when nothing does.
    var mark: ServiceMark? { get }
    /// Continues from `marks` saved by an earlier run. `fixes` are the stored fixes since
    /// `marks.replayFrom`, already through the subscriber's gate, in time order; records they
    /// produce were delivered before the restart and are not reported again.
    mutating func resume(from marks: [ServiceMark], replaying fixes: [Fix])
}

extension LocationService {
    /// A service that keeps nothing across a restart (docs/semantics.md §2.5 says which).
    public var mark: ServiceMark? { nil }
    public mutating func resume(from marks: [ServiceMark], replaying fixes: [Fix]) {}
}
