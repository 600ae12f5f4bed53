/// What a KMZ holds beside its `doc.kml` (docs/export.md): the event icons and the overlay
/// image, which the document then names by relative paths instead of Google's icon URLs.
public struct KMLEmbedding: Sendable {
    /// The archive's path of each event style's icon (`KMLStyle.icons` ids).
    public static func iconPath(_ style: String) -> String { "files/icons/\(style).png" }

    public static let overlayPath = "files/overlay.png"

    /// The map the overlay image covers, if the document has one.
    public var overlay: MapFrame?

    public init(overlay: MapFrame?) {
        self.overlay = overlay
    }

    /// The icon styles a KMZ carries: each event kind's.
    public static var iconStyles: [String] { KMLStyle.icons.map(\.id) }

    /// Icons are this many pixels square.
    public static let iconSize = 24

    /// Draws a style's icon, the picture's marker for its event kind, centred on a canvas of
    /// `iconSize` pixels.
    public static func drawIcon(_ style: String, on canvas: inout some PictureCanvas) throws {
        let kind = TrackEvent.Kind(rawValue: style) ?? .other
        let centre = Double(iconSize) / 2
        try MapPainter.symbol(kind, at: PicturePoint(centre, centre), on: &canvas)
        try canvas.finish()
    }
}
