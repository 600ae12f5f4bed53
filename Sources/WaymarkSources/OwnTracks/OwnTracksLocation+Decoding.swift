import WaymarkCore

extension OwnTracksLocation {
    /// Decodes a `location` object: `lat`, `lon` and `tst` are required; a negative `vel`, `acc`
    /// or `vac` is an error (the apps leave out values they do not have rather than send -1).
    init(reading object: OwnTracksObjectReader) throws(OwnTracksError) {
        let coordinate = try object.coordinate(why: "a location needs a position")
        var fix = Fix(time: try object.requiredTime("tst", why: "a location needs a time"), coordinate: coordinate)
        fix.horizontalAccuracy = try object.number("acc", .metres)
        fix.altitude = try object.number("alt", .altitude)
        fix.verticalAccuracy = try object.number("vac", .metres)
        fix.speed = try object.number("vel", .kilometresPerHour).map { $0 / 3.6 }
        fix.course = try object.number("cog", .degrees)
        self.init(
            fix: fix,
            batteryLevel: try object.integer("batt", .percent),
            batteryStatus: try object.integer("bs", .batteryStatus),
            trigger: try object.string("t"),
            trackerID: try object.string("tid"),
            inRegions: try object.strings("inregions"),
            inRegionIDs: try object.strings("inrids"),
            topic: try object.string("topic"),
            createdAt: try object.time("created_at"),
            connectivity: try object.string("conn"),
            ssid: try object.string("SSID"),
            bssid: try object.string("BSSID"),
            monitoringMode: try object.integer("m", .whole),
            pressure: try object.number("p", .kilopascals),
            pointOfInterest: try object.string("poi"),
            tag: try object.string("tag"))
    }
}
