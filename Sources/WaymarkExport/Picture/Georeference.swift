/// How map apps place an overlay picture: an ESRI world file beside the PNG (`.pgw`), and a KML
/// `GroundOverlay` naming the PNG and its box. Both describe the `MapFrame`'s affine mapping
/// in WGS84 degrees (EPSG:4326) for an overlay laid out at the picture's origin.
public enum Georeference {
    /// The six lines of a world file: degrees of longitude per pixel, two zero rotations,
    /// minus degrees of latitude per pixel, then the longitude and latitude of the **centre**
    /// of the top-left pixel.
    public static func worldFile(for frame: MapFrame) -> String {
        let (dx, dy) = frame.degreesPerPixel
        let lines = [dx, 0, 0, -dy, frame.west + dx / 2, frame.north - dy / 2]
        return lines.map { Decimal7.trimmed($0, decimals: 12) }.joined(separator: "\n") + "\n"
    }

    /// A KML 2.2 document with one `GroundOverlay` stretching `imageHref` over the frame's box.
    public static func groundOverlay(for frame: MapFrame, imageHref: String, name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2">
        <GroundOverlay>
         <name>\(XMLText.escape(name))</name>
         <Icon><href>\(XMLText.escape(imageHref))</href></Icon>
         \(latLonBox(for: frame))
        </GroundOverlay>
        </kml>\n
        """
    }

    /// KML's box of the map: where a `GroundOverlay` puts its image.
    static func latLonBox(for frame: MapFrame) -> String {
        "<LatLonBox><north>\(degrees(frame.north))</north><south>\(degrees(frame.south))</south>"
            + "<east>\(degrees(frame.east))</east><west>\(degrees(frame.west))</west></LatLonBox>"
    }

    private static func degrees(_ value: Double) -> String { Decimal7.trimmed(value, decimals: 10) }
}
