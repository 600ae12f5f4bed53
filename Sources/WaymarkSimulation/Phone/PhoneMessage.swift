import WaymarkCore
import WaymarkPower

/// One message the simulated phone sends, as the OwnTracks apps write it: a `location`, or a
/// `transition` its own geofencing saw (published on the `event` subtopic over MQTT).
public struct PhoneMessage: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// `t`: nil for a mode's own report, "t" for a move-mode report the interval forced,
        /// "r" for the answer to `reportLocation`.
        case location(trigger: String?)
        /// `event` "enter" or "leave" for the waypoint.
        case transition(event: String, waypoint: PhoneWaypoint)
    }

    public var kind: Kind
    /// `tst`: the phone's time of the report (the track's time).
    public var time: Timestamp
    /// `lat`, `lon`: where the phone believed it was (the truth plus its error).
    public var coordinate: Coordinate
    /// `acc`, metres.
    public var accuracy: Int
    /// `vel`, km/h.
    public var speed: Int
    /// `cog`, degrees; nil standing still.
    public var course: Int?
    /// `m`: the mode the phone was in.
    public var mode: PhoneMode
    /// `batt`, percent.
    public var battery: Int
    /// `conn`: "m" mobile data, "w" Wi-Fi.
    public var connection: String
    /// `tid`: the two letters the apps show.
    public var trackerID: String

    public var isTransition: Bool {
        if case .transition = kind { return true }
        return false
    }

    /// The message's JSON, as the app publishes it.
    public var json: String {
        var object = JSONObjectWriter()
        let seconds = Int(time.secondsSince1970.rounded(.down))
        switch kind {
        case .location(let trigger):
            object.add("_type", "location")
            object.add("tst", seconds)
            addPosition(to: &object)
            object.add("vel", speed)
            if let course { object.add("cog", course) }
            object.add("batt", battery)
            object.add("m", mode.ownTracksMonitoring)
            object.add("conn", connection)
            object.add("tid", trackerID)
            if let trigger { object.add("t", trigger) }
        case .transition(let event, let waypoint):
            object.add("_type", "transition")
            object.add("tst", seconds)
            object.add("wtst", waypoint.created)
            addPosition(to: &object)
            object.add("event", event)
            object.add("desc", waypoint.name)
            if let regionID = waypoint.regionID { object.add("rid", regionID) }
            object.add("t", "c")
            object.add("tid", trackerID)
        }
        return object.object
    }

    private func addPosition(to object: inout JSONObjectWriter) {
        object.addRaw("lat", Self.degrees(coordinate.latitude))
        object.addRaw("lon", Self.degrees(coordinate.longitude))
        object.add("acc", accuracy)
    }

    /// Seven decimals, about a centimetre, as the apps send.
    static func degrees(_ value: Double) -> String {
        let scaled = (value * 1e7).rounded()
        let sign = scaled < 0 ? "-" : ""
        let magnitude = Int64(abs(scaled))
        let fraction = String(magnitude % 10_000_000)
        return "\(sign)\(magnitude / 10_000_000).\(String(repeating: "0", count: 7 - fraction.count))\(fraction)"
    }
}
