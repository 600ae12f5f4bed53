import WaymarkCore

/// One visible beacon at a ranging instant (Core Location's `CLBeacon`).
public struct RangedBeacon: Sendable, Equatable {
    public var beacon: BeaconKey
    /// Smoothed RSSI, dBm: the mean of the samples in the smoothing window; 0 when there is none.
    public var rssi: Double
    /// The latest advertised measured power (RSSI at 1 m), dBm.
    public var measuredPower: Int8
    /// Estimated metres (`PathLossModel`); nil when unknown.
    public var distance: Double?
    public var proximity: Proximity
    /// Samples behind `rssi`.
    public var samples: Int
    public var lastSeen: Timestamp

    public init(
        beacon: BeaconKey, rssi: Double, measuredPower: Int8, distance: Double?, proximity: Proximity, samples: Int,
        lastSeen: Timestamp
    ) {
        self.beacon = beacon
        self.rssi = rssi
        self.measuredPower = measuredPower
        self.distance = distance
        self.proximity = proximity
        self.samples = samples
        self.lastSeen = lastSeen
    }
}
