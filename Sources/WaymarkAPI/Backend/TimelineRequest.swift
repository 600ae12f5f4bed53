import WaymarkCore
import WaymarkTimelineJob

/// One `GET /v1/timeline`: a device's stays and trips over its local day or over a range.
public struct TimelineRequest: Sendable, Equatable {
    public enum Range: Sendable, Equatable {
        /// The device's local day: midnight to midnight in the zone where it was that day.
        case day(TimelineDay)
        /// `from` ≤ time < `to`.
        case between(Timestamp, Timestamp)
    }

    public var device: String
    public var range: Range

    public init(device: String, range: Range) {
        self.device = device
        self.range = range
    }
}
