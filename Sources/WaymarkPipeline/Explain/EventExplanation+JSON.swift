import WaymarkCore
import WaymarkRegions

extension EventExplanation {
    /// The answer of `GET /v1/events/{id}/explain` and `waymark explain --json`, one compact
    /// object (docs/explain.md names every member):
    /// `{"event":{…,"record":{…}},"reproduced":true,"mismatch":null,"rule":"margin",
    /// "estimated":false,"confirmedAt":…,"margin":…,"delay":…,"startState":…,"window":{…},"fixes":…,
    /// "before":[…],"after":[…],"omittedAfter":0,"path":null,"recomputed":[…],"notes":[…]}`.
    public var json: String {
        var json = JSONObjectWriter()
        json.addRaw("event", Self.object(event))
        json.addRaw("reproduced", reproduced.map { $0 ? "true" : "false" } ?? "null")
        json.add("mismatch", mismatch)
        json.add("rule", transition?.rule.rawValue)
        if let transition { json.add("estimated", transition.estimated) } else { json.addRaw("estimated", "null") }
        json.add("confirmedAt", transition?.confirmedAt?.rfc3339)
        json.add("margin", margin)
        json.add("delay", delay)
        json.add("startState", startState)
        if let window {
            var object = JSONObjectWriter()
            object.add("from", window.from.rfc3339)
            object.add("to", window.to.rfc3339)
            json.addRaw("window", object.object)
        } else {
            json.addRaw("window", "null")
        }
        json.add("fixes", fixes)
        json.addRaw("before", "[" + before.map(Self.object).joined(separator: ",") + "]")
        json.addRaw("after", "[" + after.map(Self.object).joined(separator: ",") + "]")
        json.add("omittedAfter", omittedAfter)
        json.addRaw("path", path.map(Self.object) ?? "null")
        json.addRaw("recomputed", "[" + recomputed.map(Self.object).joined(separator: ",") + "]")
        json.add("exitTimeout", exitTimeout)
        json.add("notes", notes)
        return json.object
    }

    static func object(_ event: Subject) -> String {
        var json = JSONObjectWriter()
        json.add("id", Int(event.id))
        json.add("device", event.device)
        json.add("kind", event.kind.rawValue)
        json.add("region", event.region)
        json.add("transition", event.transition.rawValue)
        json.add("time", event.time.rfc3339)
        json.add("confirmedAt", event.confirmedAt?.rfc3339)
        json.addRaw("record", event.record)
        return json.object
    }

    static func object(_ reading: Reading) -> String {
        var json = JSONObjectWriter()
        json.add("time", reading.fix.time?.rfc3339)
        json.add("latitude", reading.fix.coordinate.latitude)
        json.add("longitude", reading.fix.coordinate.longitude)
        json.add("horizontalAccuracy", reading.fix.horizontalAccuracy)
        json.add("inside", reading.inside)
        json.add("edgeDistance", (reading.edgeDistance * 100).rounded() / 100)
        if let dropped = reading.dropped { json.add("dropped", dropped) }
        return json.object
    }

    static func object(_ path: Path) -> String {
        var json = JSONObjectWriter()
        json.addRaw("from", object(path.from))
        json.addRaw("to", object(path.to))
        json.addRaw("points", "[" + path.points.map(object).joined(separator: ",") + "]")
        return json.object
    }

    static func object(_ transition: RegionTransition) -> String {
        var json = JSONObjectWriter()
        json.add("transition", transition.kind.rawValue)
        json.add("time", transition.fix.time?.rfc3339)
        json.add("latitude", transition.fix.coordinate.latitude)
        json.add("longitude", transition.fix.coordinate.longitude)
        json.add("confirmedAt", transition.confirmedAt?.rfc3339)
        json.add("rule", transition.rule.rawValue)
        json.add("estimated", transition.estimated)
        return json.object
    }
}
