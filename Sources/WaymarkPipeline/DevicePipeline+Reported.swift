import WaymarkCore
import WaymarkRegions

extension DevicePipeline {
    /// A region transition the device reported itself (`reportedRegion`), in order with its
    /// fixes, as evidence for the region engine (`RegionMonitor.apply(reported:)`,
    /// docs/semantics.md §3.8): for a circle the phone watches as it is, the server's own enter
    /// or exit (rule `phone`, `"evidence":"phone"`), the place it moved and the states to
    /// save. The reported record itself is the caller's to store, before these. Any other
    /// record gives an empty step.
    public mutating func record(reported event: EventRecord) -> RecordedStep {
        var step = Step()
        guard let crossing = event.reportedCrossing else { return RecordedStep(step, time: event.time) }
        let update = regionMonitor.apply(reported: crossing)
        guard let moved = update.transitions.first else { return RecordedStep(step, time: event.time) }
        for transition in update.transitions where transition.notifies { step.events.append(.region(transition)) }
        updatePlace(after: update, of: moved.fix, into: &step)
        saveStates(after: update, of: moved.fix, into: &step)
        return RecordedStep(step, time: event.time)
    }

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

extension EventRecord {
    /// The crossing a `reportedRegion` record reports, for the region engine; nil for any other
    /// record, a dwell, or one without a region or a position.
    public var reportedCrossing: ReportedCrossing? {
        guard kind == .reportedRegion, let region, let coordinate, let transition, transition != .dwell else { return nil }
        return ReportedCrossing(
            identifier: region, entering: transition == .enter, time: time, fix: Fix(time: time, coordinate: coordinate))
    }
}
