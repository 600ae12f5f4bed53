import WaymarkBeacons
import WaymarkCore
import WaymarkRegions

extension EventExplainer {
    /// Explains a stored beacon event from its own fields: the store keeps no advertisements
    /// (only each region's last sighting, overwritten), so it cannot be recomputed; the notes say
    /// so and what the record does show.
    ///
    /// - Parameter region: the stored beacon region, for its exit timeout; nil when it is gone.
    public static func explainBeacon(
        _ event: EventExplanation.Subject, region: Region?, configuration: BeaconMonitor.Configuration = BeaconMonitor.Configuration()
    ) -> EventExplanation {
        var explanation = EventExplanation(event: event, reproduced: nil)
        explanation.notes.append(
            "not recomputed: beacon advertisements are not stored (only each region's last sighting, overwritten), "
                + "so this is what the stored record says")
        guard let region else {
            explanation.notes.append("no beacon region \"\(event.region)\" is stored now: its exit timeout is unknown")
            return explanation
        }
        let timeout = region.options.exitTimeout ?? configuration.exitTimeout
        explanation.exitTimeout = timeout
        switch event.transition {
        case .enter:
            explanation.notes.append("entered at the advertisement in the record (uuid, major, minor, rssi): the first one matching the region")
        case .exit, .dwell:
            guard let lastSeen = event.lastSeen else {
                explanation.notes.append("the record has no lastSeen")
                return explanation
            }
            let waited = event.time.seconds(since: lastSeen)
            if abs(waited - timeout) < 0.001 {
                explanation.notes.append(
                    "exited \(JSONObjectWriter.number(timeout)) s (the exit timeout) after the last matching advertisement, "
                        + "\(lastSeen.rfc3339): none was heard in between")
            } else {
                explanation.notes.append(
                    "exited \(JSONObjectWriter.number(waited)) s after the last matching advertisement, \(lastSeen.rfc3339); "
                        + "the region's exit timeout is \(JSONObjectWriter.number(timeout)) s now (it was another when the event was recorded)")
            }
        }
        return explanation
    }
}
