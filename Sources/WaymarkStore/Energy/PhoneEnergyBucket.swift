import WaymarkCore

/// One row of a phone's energy estimate as stored (`phone_energy` table, docs/semantics.md §4.4):
/// what one device's tracking cost during one hour, by radio, and how the hour divided between
/// its modes, priced by one set of phone profiles. Rows add up like the ledger's buckets.
public struct PhoneEnergyBucket: Sendable, Equatable {
    public var device: String
    /// The start of the hour (UTC, a whole hour since 1970).
    public var hour: Timestamp
    /// The phone profiles that priced it (`phone-gnss + phone-wifi + phone-lte`).
    public var profile: String
    /// Joules: the GNSS in move mode, Wi-Fi (network fixes, reports over Wi-Fi), cellular
    /// (reports over mobile data).
    public var gnssJoules: Double
    public var wifiJoules: Double
    public var cellularJoules: Double
    /// Seconds in move mode, in significant mode, and in no known mode.
    public var moveSeconds: Double
    public var significantSeconds: Double
    public var unknownSeconds: Double
    /// Reports received, how many of them had been queued offline, network fixes priced.
    public var reports: Int
    public var queuedReports: Int
    public var networkFixes: Int

    public init(
        device: String, hour: Timestamp, profile: String, gnssJoules: Double = 0, wifiJoules: Double = 0, cellularJoules: Double = 0,
        moveSeconds: Double = 0, significantSeconds: Double = 0, unknownSeconds: Double = 0, reports: Int = 0, queuedReports: Int = 0,
        networkFixes: Int = 0
    ) {
        self.device = device
        self.hour = hour
        self.profile = profile
        self.gnssJoules = gnssJoules
        self.wifiJoules = wifiJoules
        self.cellularJoules = cellularJoules
        self.moveSeconds = moveSeconds
        self.significantSeconds = significantSeconds
        self.unknownSeconds = unknownSeconds
        self.reports = reports
        self.queuedReports = queuedReports
        self.networkFixes = networkFixes
    }
}
