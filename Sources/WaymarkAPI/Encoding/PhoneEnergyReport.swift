import WaymarkCore
import WaymarkStore

/// One phone's energy estimate summed for `waymark power --device` and `GET /v1/power?device=`
/// (docs/semantics.md §4.4): joules by radio, time in each mode, joules an hour, and the profiles
/// that priced it. Decodable with the keys `json` writes, so the CLI reads the answer as this type.
public struct PhoneEnergyReport: Sendable, Equatable, Decodable {
    public var device: String
    /// The start of the earliest hour included (the hour holding `since`), or nil for all.
    public var from: String?
    /// The phone profiles that priced the rows (one unless the configuration changed).
    public var profiles: [String]
    /// Joules by radio: `gnss`, `wifi`, `cellular`.
    public var joules: [String: Double]
    public var totalJoules: Double
    /// Seconds in move mode, in significant mode, and in no known mode (reports without `m`,
    /// OsmAnd/Traccar clients, a move-mode phone silent for over an hour).
    public var moveSeconds: Double
    public var significantSeconds: Double
    public var unknownSeconds: Double
    /// Total over the seconds accounted, in joules an hour (0 before any).
    public var joulesPerHour: Double
    public var reports: Int
    public var queuedReports: Int
    public var networkFixes: Int

    /// Sums `device`'s stored rows (`WaymarkStore.phoneEnergy`).
    public init(device: String, buckets: [PhoneEnergyBucket], since: Timestamp?) {
        self.device = device
        from = since?.hourStart.rfc3339
        profiles = Array(Set(buckets.map(\.profile))).sorted()
        let sum = { (value: (PhoneEnergyBucket) -> Double) in buckets.reduce(0) { $0 + value($1) } }
        joules = ["gnss": sum(\.gnssJoules), "wifi": sum(\.wifiJoules), "cellular": sum(\.cellularJoules)]
        totalJoules = joules.values.reduce(0, +)
        moveSeconds = sum(\.moveSeconds)
        significantSeconds = sum(\.significantSeconds)
        unknownSeconds = sum(\.unknownSeconds)
        let seconds = moveSeconds + significantSeconds + unknownSeconds
        joulesPerHour = seconds > 0 ? totalJoules / seconds * 3600 : 0
        reports = buckets.reduce(0) { $0 + $1.reports }
        queuedReports = buckets.reduce(0) { $0 + $1.queuedReports }
        networkFixes = buckets.reduce(0) { $0 + $1.networkFixes }
    }

    /// `{"device","from","profiles":[…],"joules":{"cellular","gnss","wifi"},"totalJoules",
    /// "moveSeconds","significantSeconds","unknownSeconds","joulesPerHour","reports","queuedReports",
    /// "networkFixes"}`, to the millisecond and millijoule.
    public var json: String {
        var w = JSONObjectWriter()
        w.add("device", device)
        w.add("from", from)
        w.add("profiles", profiles)
        var radios = JSONObjectWriter()
        for (radio, value) in joules.sorted(by: { $0.key < $1.key }) { radios.add(radio, EnergyReport.rounded(value)) }
        w.addRaw("joules", radios.object)
        w.add("totalJoules", EnergyReport.rounded(totalJoules))
        w.add("moveSeconds", EnergyReport.rounded(moveSeconds))
        w.add("significantSeconds", EnergyReport.rounded(significantSeconds))
        w.add("unknownSeconds", EnergyReport.rounded(unknownSeconds))
        w.add("joulesPerHour", EnergyReport.rounded(joulesPerHour))
        w.add("reports", reports)
        w.add("queuedReports", queuedReports)
        w.add("networkFixes", networkFixes)
        return w.object
    }
}
