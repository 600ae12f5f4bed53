import WaymarkCore
import WaymarkExport
import WaymarkRegions

/// Turns the engine's and the services' records into `TrackEvent`s with names and
/// descriptions people can read, numbering visits and significant changes in order.
struct TrackEventNamer {
    private var visits = 0
    private var significantChanges = 0

    func event(for transition: RegionTransition) -> TrackEvent {
        regionEvent(
            transition.kind == .enter, region: transition.identifier, time: transition.fix.time,
            coordinate: transition.fix.coordinate, altitude: transition.fix.altitude)
    }

    func regionEvent(_ enter: Bool, region: String, time: Timestamp?, coordinate: Coordinate, altitude: Double?) -> TrackEvent {
        let when = time.map { " at " + $0.rfc3339 } ?? ""
        return TrackEvent(
            kind: enter ? .enter : .exit, time: time, coordinate: coordinate, altitude: altitude, region: region,
            name: (enter ? "Enter " : "Exit ") + region,
            description: enter
                ? "Entered region \(region)\(when): the first fix inside it."
                : "Left region \(region)\(when): the first fix outside it.")
    }

    /// A location-service record: `kind` `significantChange` or `visit` (with `event`
    /// `arrival`/`departure`, `arrivalTime`, `departureTime`, `uncertainty` in `fields`, as
    /// plain strings), or any other kind.
    mutating func event(kind: String, time: Timestamp, coordinate: Coordinate, fields: [String: String]) -> TrackEvent {
        switch (kind, fields["event"]) {
        case ("significantChange", _):
            significantChanges += 1
            return TrackEvent(
                kind: .significantChange, time: time, coordinate: coordinate, name: "Significant change \(significantChanges)",
                description: "Significant-change location \(significantChanges) at \(time.rfc3339): at least 500 m and 300 s after the previous one.")
        case ("visit", "arrival"):
            visits += 1
            return TrackEvent(
                kind: .arrival, time: time, coordinate: coordinate, name: "Visit \(visits) arrival",
                description: "Arrived at a place at \(time.rfc3339) and stayed within 100 m for at least 5 minutes"
                    + (fields["uncertainty"].map { " (uncertainty \($0) m)." } ?? "."))
        case ("visit", "departure"):
            let number = max(visits, 1)
            let since = fields["arrivalTime"].map { ", after arriving at \($0)" } ?? ""
            return TrackEvent(
                kind: .departure, time: time, coordinate: coordinate, name: "Visit \(number) departure",
                description: "Left the place at \(time.rfc3339)\(since).")
        default:
            return TrackEvent(
                kind: .other, time: time, coordinate: coordinate, name: kind,
                description: "\(kind) at \(time.rfc3339).", type: kind)
        }
    }
}
