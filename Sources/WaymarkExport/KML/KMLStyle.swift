/// The shared styles of Waymark's KML documents: a bright track line, one icon per event kind,
/// translucent regions. KML colours are `aabbggrr`.
enum KMLStyle {
    static let icons: [(id: String, icon: String, colour: String, scale: String)] = [
        ("enter", "http://maps.google.com/mapfiles/kml/paddle/grn-circle.png", "ffffffff", "1.1"),
        ("exit", "http://maps.google.com/mapfiles/kml/paddle/red-circle.png", "ffffffff", "1.1"),
        ("arrival", "http://maps.google.com/mapfiles/kml/paddle/purple-diamond.png", "ffffffff", "1.1"),
        ("departure", "http://maps.google.com/mapfiles/kml/paddle/purple-diamond.png", "ffffffff", "0.9"),
        ("significantChange", "http://maps.google.com/mapfiles/kml/shapes/placemark_circle.png", "ff808080", "0.7"),
        ("other", "http://maps.google.com/mapfiles/kml/shapes/placemark_circle.png", "ffc0c0c0", "0.7"),
    ]

    /// Every `<Style>` a document refers to; `iconHref` gives each event style's icon (Google's
    /// by default, a path inside a KMZ).
    static func definitions(iconHref: (_ id: String, _ google: String) -> String = { $1 }) -> String {
        var text = " <Style id=\"track\"><LineStyle><color>ff1f30d7</color><width>4</width></LineStyle></Style>\n"
        text += " <Style id=\"region\"><LineStyle><color>ffb4782c</color><width>2</width></LineStyle>"
        text += "<PolyStyle><color>4cb4782c</color></PolyStyle></Style>\n"
        for style in icons {
            text += " <Style id=\"\(style.id)\"><IconStyle><color>\(style.colour)</color><scale>\(style.scale)</scale>"
            text += "<Icon><href>\(iconHref(style.id, style.icon))</href></Icon></IconStyle></Style>\n"
        }
        return text
    }

    /// The style an event uses.
    static func url(for event: TrackEvent) -> String {
        "#" + (event.kind == .other ? "other" : event.kind.rawValue)
    }
}
