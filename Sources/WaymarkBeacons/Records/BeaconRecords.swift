import WaymarkCore

/// The JSON Lines records of beacon monitoring and ranging, the same from `waymark replay`, the
/// daemon's history and its live stream (docs/beacons.md documents them).
public enum BeaconRecords {
    /// `{"kind":"beacon","transition":"enter","region":ID,"time":…,"uuid":…,"major":…,"minor":…,"rssi":…}`
    /// or `{"kind":"beacon","transition":"exit","region":ID,"time":…,"lastSeen":…}`.
    public static func transition(_ transition: BeaconTransition) -> String {
        var json = JSONObjectWriter()
        json.add("kind", "beacon")
        json.add("transition", transition.kind.rawValue)
        json.add("region", transition.identifier)
        json.add("time", transition.time.rfc3339)
        switch transition.kind {
        case .enter:
            if let advertisement = transition.advertisement {
                json.add("uuid", advertisement.uuid.description)
                json.add("major", Int(advertisement.major))
                json.add("minor", Int(advertisement.minor))
                json.add("rssi", Int(advertisement.rssi))
            }
        case .exit:
            json.add("lastSeen", transition.lastSeen.rfc3339)
        }
        return json.object
    }

    /// `{"kind":"ranging","time":…,"beacons":[{"uuid","major","minor","rssi","measuredPower",
    /// "distance","proximity","samples"},…]}`: RSSI to 0.1 dB, distance to the centimetre (null
    /// when unknown).
    public static func ranging(time: Timestamp, beacons: [RangedBeacon]) -> String {
        var json = JSONObjectWriter()
        json.add("kind", "ranging")
        json.add("time", time.rfc3339)
        json.addRaw("beacons", "[" + beacons.map(object).joined(separator: ",") + "]")
        return json.object
    }

    private static func object(_ ranged: RangedBeacon) -> String {
        var json = JSONObjectWriter()
        json.add("uuid", ranged.beacon.uuid.description)
        json.add("major", Int(ranged.beacon.major))
        json.add("minor", Int(ranged.beacon.minor))
        json.add("rssi", (ranged.rssi * 10).rounded() / 10)
        json.add("measuredPower", Int(ranged.measuredPower))
        json.add("distance", ranged.distance.map { ($0 * 100).rounded() / 100 })
        json.add("proximity", ranged.proximity.rawValue)
        json.add("samples", ranged.samples)
        return json.object
    }
}
