import WaymarkCore

/// An OwnTracks `transition` message: the device entered or left one of its regions.
public struct OwnTracksTransition: Sendable, Equatable {
    public enum Event: String, Sendable, Equatable {
        case enter
        case leave
    }

    /// `event`.
    public var event: Event
    /// `tst`: when the transition happened.
    public var time: Timestamp
    /// Where the device was (`lat`, `lon`, `acc`, at `tst`); `nil` when the app sent no
    /// position (the booklet makes `lat` and `lon` optional here; the apps do send them).
    public var fix: Fix?
    /// `desc`: the region's name on the device.
    public var regionName: String?
    /// `rid`: the region's ID (apps since January 2021); `setWaypoints` sends Waymark's region
    /// identifier as `rid`, so this maps a transition back to its region.
    public var regionID: String?
    /// `wtst`: when the region was created; the app's identity of the region before `rid`.
    public var regionCreated: Timestamp?
    /// `t`: what fired: `c` circular region, `b` beacon, `w` Wi-Fi, `l` location update, …
    public var trigger: String?
    /// `tid`: the tracker ID.
    public var trackerID: String?
    /// `topic`: the MQTT topic the app would have published to (`…/event`).
    public var topic: String?

    public init(
        event: Event, time: Timestamp, fix: Fix? = nil, regionName: String? = nil, regionID: String? = nil,
        regionCreated: Timestamp? = nil, trigger: String? = nil, trackerID: String? = nil, topic: String? = nil
    ) {
        self.event = event
        self.time = time
        self.fix = fix
        self.regionName = regionName
        self.regionID = regionID
        self.regionCreated = regionCreated
        self.trigger = trigger
        self.trackerID = trackerID
        self.topic = topic
    }
}
