import WaymarkCore

/// An OwnTracks `location` message: the fix, and what the app says about itself around it.
///
/// `fix` takes its time from `tst`, its position from `lat`/`lon`, `horizontalAccuracy` from
/// `acc` (m), `verticalAccuracy` from `vac` (m), `altitude` from `alt` (m), `speed` from `vel`
/// converted from km/h to m/s, and `course` from `cog` (degrees). Members the app left out stay
/// `nil`. The apps only add `acc`, `alt`, `cog`, `vac` and `vel` when they are not zero, and some
/// Android phones report 0 for `alt` and `vel` whatever they are: a 0 is kept as sent.
public struct OwnTracksLocation: Sendable, Equatable {
    public var fix: Fix
    /// `batt`: battery level, percent (0…100).
    public var batteryLevel: Int?
    /// `bs`: battery status, 0 unknown, 1 unplugged, 2 charging, 3 full.
    public var batteryStatus: Int?
    /// `t`: why the app published: `p` ping, `c` circular region event, `b` beacon region event,
    /// `r` answer to `reportLocation`, `u` by the user, `t` timer in move mode, `v` iOS frequent
    /// locations, … (absent for an automatic update). Kept as sent: devices add their own.
    public var trigger: String?
    /// `tid`: the tracker ID the apps show as the user's initials.
    public var trackerID: String?
    /// `inregions`: names of the device's regions it is inside (possibly empty).
    public var inRegions: [String]?
    /// `inrids`: the same regions by region ID.
    public var inRegionIDs: [String]?
    /// `topic`: the MQTT topic the app would have published to, e.g. `owntracks/jane/phone`
    /// (HTTP mode, iOS and Android ≥ 2.4); see `OwnTracksTopic`.
    public var topic: String?
    /// `created_at`: when the app built the message (`tst` is when the fix was taken).
    public var createdAt: Timestamp?
    /// `conn`: connectivity when the message was built: `w` Wi-Fi, `m` mobile data, `o` offline.
    public var connectivity: String?
    /// `SSID`: the Wi-Fi network's name.
    public var ssid: String?
    /// `BSSID`: the Wi-Fi access point.
    public var bssid: String?
    /// `m`: the app's monitoring mode when it built the message (1 significant, 2 move, …).
    public var monitoringMode: Int?
    /// `p`: barometric pressure, kPa.
    public var pressure: Double?
    /// `poi`: the point of interest the user named for this location (iOS).
    public var pointOfInterest: String?
    /// `tag`: the tag the user set (iOS).
    public var tag: String?

    public init(
        fix: Fix, batteryLevel: Int? = nil, batteryStatus: Int? = nil, trigger: String? = nil,
        trackerID: String? = nil, inRegions: [String]? = nil, inRegionIDs: [String]? = nil,
        topic: String? = nil, createdAt: Timestamp? = nil, connectivity: String? = nil,
        ssid: String? = nil, bssid: String? = nil, monitoringMode: Int? = nil, pressure: Double? = nil,
        pointOfInterest: String? = nil, tag: String? = nil
    ) {
        self.fix = fix
        self.batteryLevel = batteryLevel
        self.batteryStatus = batteryStatus
        self.trigger = trigger
        self.trackerID = trackerID
        self.inRegions = inRegions
        self.inRegionIDs = inRegionIDs
        self.topic = topic
        self.createdAt = createdAt
        self.connectivity = connectivity
        self.ssid = ssid
        self.bssid = bssid
        self.monitoringMode = monitoringMode
        self.pressure = pressure
        self.pointOfInterest = pointOfInterest
        self.tag = tag
    }
}
