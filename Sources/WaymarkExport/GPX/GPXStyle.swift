/// How an exported track and its event waypoints look in the apps that style GPX: no single
/// extension is read everywhere, so the track carries its colour three ways at once, each in its
/// own namespace (GPX 1.1 lets `extensions` hold elements of other namespaces):
///
/// - `gpx_style:line` (Topografix's GPX style 0.2: colour `RRGGBB`, width in millimetres), read by
///   Locus, GPXSee, gpx.studio and Leaflet's GPX plug-in;
/// - `osmand:color` and `osmand:width` (`#RRGGBB`, a width of 1–24), inside the track and, where
///   OsmAnd's own files put them, in the document's `extensions`;
/// - `gpxx:TrackExtension/gpxx:DisplayColor` (Garmin's GPX extensions v3), one of Garmin's 16
///   named colours: the nearest to the route's.
///
/// The colour and width are the picture's route (`PicturePalette.route`, 3.5 px), so a GPX shows
/// the route as the SVG, PNG, KML and MBTiles exports draw it. Event waypoints get a `sym` from
/// Garmin's symbol names, which Garmin, Locus and OsmAnd show as icons, and an `osmand:color`
/// in the marker's colour.
enum GPXStyle {
    static let styleNamespace = "http://www.topografix.com/GPX/gpx_style/0/2"
    static let osmandNamespace = "https://osmand.net"
    static let garminNamespace = "http://www.garmin.com/xmlschemas/GpxExtensions/v3"

    /// The root's namespace declarations (after the GPX ones).
    static let declarations =
        " xmlns:gpx_style=\"\(styleNamespace)\" xmlns:osmand=\"\(osmandNamespace)\" xmlns:gpxx=\"\(garminNamespace)\""

    /// Pairs for `xsi:schemaLocation` (OsmAnd publishes no schema).
    static let schemaLocations =
        " \(styleNamespace) \(styleNamespace)/gpx_style.xsd \(garminNamespace) http://www.garmin.com/xmlschemas/GpxExtensionsv3.xsd"

    static let routeColour = PicturePalette.route
    static let routeWidthPixels = PicturePalette.routeWidth

    /// `<extensions>` of a track in `colour` (the route's by default), before its first `trkseg`.
    static func trackExtensions(colour: PictureColor = routeColour) -> String {
        let hex = String(colour.hex.dropFirst())
        var text = "  <extensions>"
        text += "<gpx_style:line><gpx_style:color>\(hex.uppercased())</gpx_style:color>"
        text += "<gpx_style:width>\(Decimal7.format(millimetres(pixels: routeWidthPixels), decimals: 2))</gpx_style:width></gpx_style:line>"
        text += osmandLine(colour: colour)
        text += "<gpxx:TrackExtension><gpxx:DisplayColor>\(garminColour(nearest: colour))</gpxx:DisplayColor></gpxx:TrackExtension>"
        return text + "</extensions>\n"
    }

    /// `<extensions>` of the document, after the track: where OsmAnd's own files style every track.
    static var documentExtensions: String { " <extensions>\(osmandLine(colour: routeColour))</extensions>\n" }

    private static func osmandLine(colour: PictureColor) -> String {
        "<osmand:color>\(colour.hex)</osmand:color><osmand:width>\(osmandWidth)</osmand:width>"
    }

    /// OsmAnd's numeric widths run 1–24; twice the picture's pixels reads alike on a phone.
    static var osmandWidth: Int { min(24, max(1, Int((routeWidthPixels * 2).rounded()))) }

    /// CSS pixels (1/96 inch) to millimetres.
    static func millimetres(pixels: Double) -> Double { pixels * 25.4 / 96 }

    /// The Garmin symbol an event's waypoint shows.
    static func symbol(for kind: TrackEvent.Kind) -> String {
        switch kind {
        case .enter: "Flag, Green"
        case .exit: "Flag, Red"
        case .arrival: "Flag, Blue"
        case .departure: "Pin, Blue"
        case .significantChange, .other: "Waypoint"
        }
    }

    /// Garmin's `DisplayColor_t` values with the colours Garmin devices draw them in.
    static let garminColours: [(name: String, rgb: UInt32)] = [
        ("Black", 0x000000), ("DarkRed", 0x800000), ("DarkGreen", 0x008000), ("DarkYellow", 0x808000),
        ("DarkBlue", 0x000080), ("DarkMagenta", 0x800080), ("DarkCyan", 0x008080), ("LightGray", 0xc0c0c0),
        ("DarkGray", 0x808080), ("Red", 0xff0000), ("Green", 0x00ff00), ("Yellow", 0xffff00),
        ("Blue", 0x0000ff), ("Magenta", 0xff00ff), ("Cyan", 0x00ffff), ("White", 0xffffff),
    ]

    /// The Garmin colour nearest to `colour` (squared distance in RGB).
    static func garminColour(nearest colour: PictureColor) -> String {
        func distance(_ rgb: UInt32) -> Double {
            let other = PictureColor(rgb)
            let (r, g, b) = (colour.red - other.red, colour.green - other.green, colour.blue - other.blue)
            return r * r + g * g + b * b
        }
        return garminColours.min { distance($0.rgb) < distance($1.rgb) }?.name ?? "Red"
    }
}
