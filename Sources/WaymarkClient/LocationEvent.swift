import Foundation

/// One event delivered to a handler: a region transition, a significant change, a visit, a
/// standard location… with the exact JSON object `waymark replay` prints for it.
public struct LocationEvent: Sendable {
    /// Unique and increasing per handler; a repeat after a restart carries the same id.
    public let id: Int64
    /// Deliveries so far, this one included.
    public let attempt: Int
    /// `region`, `significantChange`, `visit`, `location`, …
    public let reason: String
    /// The device whose fixes caused it: `local` for the gpsd receiver, else a phone's or
    /// tracker's name (docs/devices.md).
    public let device: String
    /// The record as JSON text.
    public let json: String
    public let kind: String
    /// RFC 3339 UTC.
    public let time: String?
    public let latitude: Double?
    public let longitude: Double?
    /// For region events: the region and `enter`, `exit` or `dwell`.
    public let region: String?
    public let transition: String?
    /// What the fix carried, for `location` records; nil when unknown (docs/semantics.md §2.2).
    /// Metres: the horizontal error radius, the altitude above mean sea level and its error.
    public let horizontalAccuracy: Double?
    public let altitude: Double?
    public let verticalAccuracy: Double?
    /// Metres a second, and degrees clockwise from true north.
    public let speed: Double?
    public let course: Double?

    init?(message: [String: Any]) {
        guard let id = (message["id"] as? NSNumber)?.int64Value, let event = message["event"] as? [String: Any],
            let data = try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys])
        else { return nil }
        self.id = id
        attempt = (message["attempt"] as? NSNumber)?.intValue ?? 1
        reason = message["reason"] as? String ?? ""
        device = message["device"] as? String ?? "local"
        json = String(decoding: data, as: UTF8.self)
        kind = event["kind"] as? String ?? ""
        time = event["time"] as? String
        latitude = (event["latitude"] as? NSNumber)?.doubleValue
        longitude = (event["longitude"] as? NSNumber)?.doubleValue
        region = event["region"] as? String
        transition = event["transition"] as? String
        func number(_ key: String) -> Double? { (event[key] as? NSNumber)?.doubleValue }
        horizontalAccuracy = number("horizontalAccuracy")
        altitude = number("altitude")
        verticalAccuracy = number("verticalAccuracy")
        speed = number("speed")
        course = number("course")
    }
}

/// What the daemon tells a handler besides events.
public enum HandlerNotice: Sendable, Equatable {
    /// A background task's time is about to run out: end it now or be terminated.
    case expiration(token: String, secondsLeft: Double)
    /// The handler is about to be suspended: save state.
    case willSuspend
    /// It was resumed for new events.
    case didResume
    /// The user launched it: no time budget now.
    case didBecomeActive
    /// It left `active`: its time budget runs from now.
    case didEnterBackground
    /// The daemon is shutting down; SIGTERM follows.
    case willTerminate
    /// The system is short of memory: free what can be freed.
    case didReceiveMemoryWarning
    /// The daemon refused a message.
    case error(String)
}

/// A region's state as the daemon sees it.
public struct RegionStateAnswer: Sendable, Equatable {
    /// `inside`, `outside` or `unknown`; nil when there is no such region.
    public let state: String?
    public let since: String?
}

/// Failures of the client.
public struct WaymarkClientError: Error, Sendable, CustomStringConvertible {
    public let description: String
    /// The daemon's stable code when it could not answer a query (`handler.unknown-device`,
    /// docs/handlers.md); nil for the client's own failures.
    public let code: String?

    init(_ description: String, code: String? = nil) {
        self.description = description
        self.code = code
    }
}
