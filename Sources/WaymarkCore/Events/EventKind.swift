/// The kind of everything a device's pipeline reports: the `kind` member of its JSON record, the
/// `kind` column of the stored `events`, and the reason a handler is launched with. One type from
/// the engine to the store to the API, so a kind is never a free-form string in between.
public enum EventKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// The regions' state established by the first admitted fix (not a transition).
    case state
    /// A geographic region transition (enter, exit, dwell).
    case region
    /// A beacon region transition (enter, exit).
    case beacon
    /// The device's place changed: the highest-priority geographic region it is confirmed inside,
    /// or none (docs/semantics.md §3.7).
    case place
    /// A standard-updates location.
    case location
    /// A significant-change location (docs/semantics.md §2).
    case significantChange
    /// A visit's arrival or departure.
    case visit
    /// Standard updates paused (the device is stationary) or resumed.
    case paused, resumed
    /// A timeline stay, after the device left it; a timeline trip, once it reached its stay
    /// (the `timeline` service, docs/timeline/events.md).
    case stay, trip
    /// Ranged beacons at one instant.
    case ranging
    /// No position.
    case gap
    /// A region transition the device itself reported (OwnTracks' `transition`), stored beside
    /// Waymark's own evaluation of the same fixes; handlers are not given it (docs/devices.md).
    case reportedRegion
    /// A region the device itself defines (OwnTracks' `waypoint`, `waypoints`): recorded, not
    /// monitored by Waymark (docs/devices.md).
    case reportedWaypoint
    /// The broker's word that the device's connection dropped (OwnTracks' `lwt`).
    case reportedOffline
    /// The name the device's user shows to others (OwnTracks' `card`).
    case reportedCard
    /// A stay another application recorded (Google's `placeVisit`, a Timeline `visit`), read by
    /// `waymark import` and kept beside Waymark's own visits (docs/import.md).
    case reportedVisit
    /// A movement another application recorded (Google's `activitySegment`, a Timeline
    /// `activity`), read by `waymark import` (docs/import.md).
    case reportedActivity
    /// A wake someone asked for (`POST /v1/handlers/{name}/notify`), like a silent push
    /// notification: only ever in a handler's queue.
    case push
    /// A change in the hardware: a receiver attached or removed, the Bluetooth adapter up or
    /// down, the fix lost or regained (`--accessory`).
    case accessory
    /// A periodic wake a handler asked for (background fetch, `--fetch-interval`): only ever in a
    /// handler's queue.
    case fetch
}
