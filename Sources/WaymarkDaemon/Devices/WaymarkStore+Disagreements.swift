import WaymarkCore
import WaymarkPipeline
import WaymarkStore

extension WaymarkStore {
    /// Seconds beyond the asked interval events are read, so a transition the other side made
    /// late or early just outside it is still found: an hour (plus the tolerance).
    static let disagreementContext = 3600.0

    /// A device's own reported transitions (`reportedRegion`) beside the server's (`region`,
    /// `beacon` enter and exit) for `from` ≤ time < `to` (docs/devices.md, "Phone and server side
    /// by side"): `waymark explain --device` and `GET /v1/devices/{name}/disagreements`.
    ///
    /// Events an hour and the tolerance either side are read too, so a partner just outside the
    /// interval is found; only agreements and disagreements inside it are returned. A region
    /// counts as monitored when the store has it or the server made a transition of it.
    public func transitionComparison(
        device: String, from: Timestamp, to: Timestamp,
        tolerance: Double = ReportedTransitionMatcher.defaultTolerance
    ) throws -> TransitionComparison {
        let context = Self.disagreementContext + tolerance
        var phone: [SideTransition] = []
        var server: [SideTransition] = []
        let query = HistoryQuery(from: from.adding(seconds: -context), to: to.adding(seconds: context), kinds: [.event], devices: [device])
        try history(query) { item in
            guard case .event(let event) = item, let region = event.region, let transition = event.transition,
                transition != .dwell
            else { return }
            let side = SideTransition(id: event.id, time: event.time, region: region, transition: transition)
            switch event.kind {
            case .reportedRegion: phone.append(side)
            case .region, .beacon: server.append(side)
            default: break
            }
        }
        var monitored = Set(server.map(\.region))
        for region in Set(phone.map(\.region)).subtracting(monitored) where try self.region(identifier: region) != nil {
            monitored.insert(region)
        }
        var comparison = ReportedTransitionMatcher.compare(
            phone: phone, server: server, monitored: monitored, tolerance: tolerance)
        let inside = { (transition: SideTransition) in transition.time >= from && transition.time < to }
        comparison.agreed.removeAll { !inside($0.phone) && !inside($0.server) }
        comparison.disagreements.removeAll { !inside($0.transition) }
        return comparison
    }
}
