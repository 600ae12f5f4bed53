import Logging
import WaymarkCore
import WaymarkPlaces
import WaymarkStore

/// Builds a device's timeline from its history: brings the stored stays and trips up to date
/// (incrementally, from the last stored stay), then names those overlapping the range.
///
/// SKELETON: the implementation lands with the job's own commit.
public struct TimelineJob: Sendable {
    public let store: WaymarkStore
    /// The offline geocoder; nil when no place data is installed (names are then coordinates
    /// and the user's regions, times UTC).
    public let places: PlaceIndex?
    public let logger: Logger

    public init(store: WaymarkStore, places: PlaceIndex?, logger: Logger) {
        self.store = store
        self.places = places
        self.logger = logger
    }

    /// The stays and trips overlapping [from, to). `timeZone` names the zone the range was taken
    /// in (nil: the zone at the device's position, `TimelineDay`).
    public func timeline(device: String, from: Timestamp, to: Timestamp, timeZone: String? = nil) async throws -> Timeline {
        Timeline(device: device, from: from, to: to, timeZone: timeZone ?? "UTC", entries: [], lastIsOpen: false)
    }
}
