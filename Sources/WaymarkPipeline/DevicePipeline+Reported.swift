import WaymarkRegions

extension DevicePipeline {
    /// Whether a transition the device reported itself (OwnTracks' `transition`) disagrees with
    /// the state the server has confirmed for that region now: an entry while the server has the
    /// device outside, an exit while inside, or a region the server does not monitor. Dwells
    /// never disagree. The daemon counts these as they arrive (`reportedRegionDisagreements`);
    /// `waymark explain --device` pairs the two sides' transitions with a tolerance instead.
    ///
    /// One pass over the region identifiers: reported transitions are a few a day.
    public func disagrees(withReported transition: RegionTransition.Kind, of region: String) -> Bool {
        let inside: Bool
        if let index = (0..<regionMonitor.index.count).first(where: { regionMonitor.index.identifier(at: $0) == region }) {
            inside = regionMonitor.inside.contains(Int32(index))
        } else if let index = beaconMonitor.regions.firstIndex(where: { $0.identifier == region }) {
            inside = beaconMonitor.insideRegions.contains(Int32(index))
        } else {
            return true
        }
        switch transition {
        case .enter: return !inside
        case .exit: return inside
        case .dwell: return false
        }
    }
}
