import WaymarkCore
import WaymarkRegions

/// What a replay saw, printed as its final `summary` record.
public struct ReplaySummary: Sendable, Equatable {
    /// Fixes read from the track.
    public var fixes = 0
    /// Fixes without a time (replayed without timing).
    public var untimedFixes = 0
    /// Regions monitored.
    public var regions = 0
    public var enters = 0
    public var exits = 0

    public init() {}

    mutating func count(_ transition: RegionTransition) {
        switch transition.kind {
        case .enter: enters += 1
        case .exit: exits += 1
        }
    }

    /// The `{"kind":"summary",…}` record.
    public var record: String {
        var json = JSONObjectWriter()
        json.add("kind", "summary")
        json.add("fixes", fixes)
        json.add("untimedFixes", untimedFixes)
        json.add("regions", regions)
        json.addRaw("transitions", "{\"enter\":\(enters),\"exit\":\(exits)}")
        return json.object
    }
}

