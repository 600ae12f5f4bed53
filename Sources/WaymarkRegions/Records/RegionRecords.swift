import WaymarkCore

/// The JSON Lines records of region monitoring, the same from `waymark replay`, the daemon's
/// history and its live stream (README.md documents them).
public enum RegionRecords {
    /// `{"kind":"state","time":…,"latitude":…,"longitude":…,"inside":[…]}`: the initial
    /// membership, from the first fix.
    public static func state(fix: Fix, inside: [String]) -> String {
        var json = JSONObjectWriter()
        json.add("kind", "state")
        addPosition(of: fix, to: &json)
        json.add("inside", inside)
        return json.object
    }

    /// `{"kind":"region","transition":"enter"|"exit"|"dwell","region":ID,"time":…,"latitude":…,
    /// "longitude":…,"confirmedAt":…}`, then `"crossed":true` or `"initial":true` when so, and
    /// `"evidence":"phone"` when the device's own geofencing reported it (rule `phone`).
    /// `time` is when the boundary was crossed (the first fix on the new side), `confirmedAt`
    /// when the monitor's rules confirmed it.
    public static func transition(_ transition: RegionTransition) -> String {
        var json = JSONObjectWriter()
        json.add("kind", "region")
        json.add("transition", transition.kind.rawValue)
        json.add("region", transition.identifier)
        addPosition(of: transition.fix, to: &json)
        if let confirmedAt = transition.confirmedAt { json.add("confirmedAt", confirmedAt.rfc3339) }
        if transition.crossed { json.add("crossed", true) }
        if transition.initial { json.add("initial", true) }
        if transition.rule == .phone { json.add("evidence", "phone") }
        return json.object
    }

    /// `{"kind":"place","place":ID|null,"previous":ID|null,"time":…,"latitude":…,"longitude":…}`,
    /// then `"confirmedAt":…` when so: the device's place changed (docs/semantics.md §3.7); null
    /// is no region. `fix` is the crossing that moved it (as in its transition's record), or the
    /// fix that established it.
    public static func place(_ place: String?, previous: String?, fix: Fix, confirmedAt: Timestamp? = nil) -> String {
        var json = JSONObjectWriter()
        json.add("kind", "place")
        json.add("place", place)
        json.add("previous", previous)
        addPosition(of: fix, to: &json)
        if let confirmedAt { json.add("confirmedAt", confirmedAt.rfc3339) }
        return json.object
    }

    private static func addPosition(of fix: Fix, to json: inout JSONObjectWriter) {
        json.add("time", fix.time?.rfc3339)
        json.add("latitude", fix.coordinate.latitude)
        json.add("longitude", fix.coordinate.longitude)
    }
}
