import WaymarkCore
import WaymarkRegions

/// The JSON Lines records `waymark replay` prints (documented in README.md).
enum ReplayRecords {
    /// `{"kind":"state",…,"inside":[…]}`: the initial membership, from the first fix.
    static func state(fix: Fix, inside: [String]) -> String {
        var json = JSONObjectWriter()
        json.add("kind", "state")
        addPosition(of: fix, to: &json)
        json.add("inside", inside)
        return json.object
    }

    /// `{"kind":"region","transition":"enter"|"exit","region":ID,…}`.
    static func region(_ transition: RegionTransition) -> String {
        var json = JSONObjectWriter()
        json.add("kind", "region")
        json.add("transition", transition.kind.rawValue)
        json.add("region", transition.identifier)
        addPosition(of: transition.fix, to: &json)
        return json.object
    }

    private static func addPosition(of fix: Fix, to json: inout JSONObjectWriter) {
        json.add("time", fix.time?.rfc3339)
        json.add("latitude", fix.coordinate.latitude)
        json.add("longitude", fix.coordinate.longitude)
    }
}
