import WaymarkCore

extension OwnTracksWaypoint {
    /// The waypoint as a JSON object, members in the order the booklet lists them.
    var json: String {
        var writer = JSONObjectWriter()
        writer.add("_type", "waypoint")
        writer.add("desc", name)
        if let center {
            writer.add("lat", center.latitude)
            writer.add("lon", center.longitude)
        }
        if let radius { writer.add("rad", radius) }
        if let beacon {
            writer.add("uuid", beacon.uuid.description)
            if let major = beacon.major { writer.add("major", Int(major)) }
            if let minor = beacon.minor { writer.add("minor", Int(minor)) }
        }
        // Whole seconds: both apps read `tst` as an integer.
        let (seconds, remainder) = created.nanosecondsSince1970.quotientAndRemainder(dividingBy: 1_000_000_000)
        writer.add("tst", Int(remainder < 0 ? seconds - 1 : seconds))
        if let regionID { writer.add("rid", regionID) }
        return writer.object
    }
}
