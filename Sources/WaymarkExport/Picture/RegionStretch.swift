/// The stretches of a track spent inside each region, as distances along it: what the profile
/// shades. Pure, from the events the profile placed along the track.
///
/// A stretch runs from an entry to the region's next exit. A region the track starts in
/// (`initialRegions`), or one left without an entry seen, is inside from the start; one entered
/// and never left, to the end.
public struct RegionStretch: Sendable, Equatable {
    public var region: String
    public var from: Double
    public var to: Double

    public init(region: String, from: Double, to: Double) {
        self.region = region
        self.from = from
        self.to = to
    }

    public static func stretches(
        of placed: [(event: TrackEvent, distance: Double)], initialRegions: [String], totalDistance: Double
    ) -> [RegionStretch] {
        var open: [String: Double] = [:]
        for region in initialRegions { open[region] = 0 }
        var stretches: [RegionStretch] = []
        var seen: Set<String> = Set(initialRegions)
        for (event, distance) in placed {
            guard let region = event.region else { continue }
            switch event.kind {
            case .enter:
                if open[region] == nil { open[region] = distance }
                seen.insert(region)
            case .exit:
                let start = open.removeValue(forKey: region) ?? (seen.contains(region) ? nil : 0)
                seen.insert(region)
                if let start { stretches.append(RegionStretch(region: region, from: start, to: distance)) }
            default:
                continue
            }
        }
        for (region, start) in open { stretches.append(RegionStretch(region: region, from: start, to: totalDistance)) }
        return stretches.sorted { ($0.from, $0.region) < ($1.from, $1.region) }
    }
}
