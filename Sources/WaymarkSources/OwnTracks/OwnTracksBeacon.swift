import WaymarkCore
import WaymarkRegions

/// An OwnTracks `beacon` message: one iBeacon seen while ranging (iOS only).
public struct OwnTracksBeacon: Sendable, Equatable {
    public var uuid: BeaconUUID
    public var major: UInt16
    public var minor: UInt16
    /// `tst`: when the beacon was seen.
    public var time: Timestamp
    /// `acc`: Core Location's estimate of the distance, metres; `nil` when the app sent none
    /// or a negative value, which is how Core Location says it does not know.
    public var accuracy: Double?
    /// `rssi`: received signal strength, dBm.
    public var rssi: Int?
    /// `prox`: 0 unknown, 1 immediate, 2 near, 3 far.
    public var proximity: Int?
    /// `desc`: the name of the device's beacon region the beacon belongs to.
    public var regionName: String?
    /// `tid`: the tracker ID.
    public var trackerID: String?

    public init(
        uuid: BeaconUUID, major: UInt16, minor: UInt16, time: Timestamp, accuracy: Double? = nil,
        rssi: Int? = nil, proximity: Int? = nil, regionName: String? = nil, trackerID: String? = nil
    ) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.time = time
        self.accuracy = accuracy
        self.rssi = rssi
        self.proximity = proximity
        self.regionName = regionName
        self.trackerID = trackerID
    }
}
