import WaymarkCore

/// A day overlay as GPX 1.1: each stop a waypoint (name, local times in `desc`, a Garmin
/// `Lodging`-style symbol), each trip its own `<trk>` with the trip's name, figures and `type`
/// (the travel mode), styled in the mode's colour the way an export's route is (`GPXStyle`:
/// gpx_style, OsmAnd and Garmin extensions). Valid against the GPX 1.1 schema.
public enum DayOverlayGPX {
    public static func document(_ overlay: DayOverlay, creator: String = "waymark") -> String {
        var text = GPXWriter<StringSink>.root(creator: creator, styled: true) + " <metadata>\n"
        text += "  <name>\(XMLText.escape(overlay.name))</name>\n"
        text += "  <desc>\(XMLText.escape(summary(overlay)))</desc>\n"
        if let attribution = overlay.attribution {
            // GPX 1.1 `copyrightType`: the holder, and CC BY's licence text.
            text += "  <copyright author=\"\(XMLText.escape(attribution))\"><license>https://creativecommons.org/licenses/by/4.0/</license></copyright>\n"
        }
        if let bounds = overlay.bounds {
            let (west, east) = bounds.westAndEast
            text += "  <bounds minlat=\"\(Decimal7.format(bounds.minLatitude))\" minlon=\"\(Decimal7.format(west))\""
            text += " maxlat=\"\(Decimal7.format(bounds.maxLatitude))\" maxlon=\"\(Decimal7.format(east))\"/>\n"
        }
        text += " </metadata>\n"
        for stop in overlay.stops { text += waypoint(stop) }
        for leg in overlay.legs { text += track(leg) }
        return text + GPXStyle.documentExtensions + "</gpx>\n"
    }

    /// `3 stays, 2 trips, 14.2 km`.
    static func summary(_ overlay: DayOverlay) -> String {
        let kilometres = overlay.legs.reduce(0) { $0 + $1.distance } / 1000
        return "\(overlay.stops.count) \(overlay.stops.count == 1 ? "stay" : "stays"), \(overlay.legs.count) "
            + "\(overlay.legs.count == 1 ? "trip" : "trips"), \(Decimal7.format(kilometres, decimals: 1)) km"
    }

    private static func waypoint(_ stop: DayOverlay.Stop) -> String {
        var text = " <wpt lat=\"\(Decimal7.format(stop.coordinate.latitude))\" lon=\"\(Decimal7.format(stop.coordinate.longitude))\">"
        text += "<time>\(stop.arrival.rfc3339)</time><name>\(XMLText.escape(stop.name))</name>"
        text += "<desc>\(XMLText.escape(stop.description))</desc><sym>Flag, Blue</sym><type>stay</type>"
        text += "<extensions><osmand:color>\(PicturePalette.visit.hex)</osmand:color></extensions></wpt>\n"
        return text
    }

    private static func track(_ leg: DayOverlay.Leg) -> String {
        var text = " <trk>\n  <name>\(XMLText.escape(leg.name))</name>\n  <desc>\(XMLText.escape(leg.description))</desc>\n"
        text += "  <type>\(XMLText.escape(leg.mode))</type>\n" + GPXStyle.trackExtensions(colour: leg.colour) + "  <trkseg>\n"
        for (index, coordinate) in leg.path.enumerated() {
            text += "   <trkpt lat=\"\(Decimal7.format(coordinate.latitude))\" lon=\"\(Decimal7.format(coordinate.longitude))\">"
            // The ends carry the trip's times; the simplified points between have none.
            if index == 0 { text += "<time>\(leg.start.rfc3339)</time>" } else if index == leg.path.count - 1 { text += "<time>\(leg.end.rfc3339)</time>" }
            text += "</trkpt>\n"
        }
        return text + "  </trkseg>\n </trk>\n"
    }
}
