import Logging
import WaymarkCore
import WaymarkStore
import WaymarkTimelineJob

/// `GET /v1/timeline` over a daemon's store: the place data read once (`PlaceIndexLoader`),
/// then the timeline job, its refusals as the API's.
public struct StoreTimelines: Sendable {
    public let store: WaymarkStore
    public let places: PlaceIndexLoader
    public let logger: Logger

    public init(store: WaymarkStore, places: PlaceIndexLoader, logger: Logger) {
        self.store = store
        self.places = places
        self.logger = logger
    }

    /// Throws `APIError.noDevice` for a device that is not local, not registered and has no
    /// history; 400 for a range or day the job refuses.
    public func timeline(_ request: TimelineRequest) async throws -> Timeline {
        let job = TimelineJob(store: store, places: await places.index(), logger: logger)
        do {
            switch request.range {
            case .between(let from, let to):
                return try await job.timeline(device: request.device, from: from, to: to)
            case .day(let day):
                let range = try await job.day(device: request.device, day)
                return try await job.timeline(device: request.device, from: range.from, to: range.to, timeZone: range.timeZone)
            }
        } catch let error as TimelineError {
            switch error.code {
            case .unknownDevice: throw APIError.noDevice(request.device)
            case .invalidDay: throw APIError.invalidParameter("day", error.message)
            default: throw APIError.invalidParameter("to", error.message)
            }
        }
    }
}
