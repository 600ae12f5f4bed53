import WaymarkRegions

/// The parts of a picture and where they go.
///
/// A full picture, top to bottom: a header (the track's name and its statistics), the map
/// (route over the regions, markers, scale bar, north arrow), a row of legend and the
/// elevation profile. An overlay is the map alone on a transparent background, the whole image
/// georeferenced, for map apps.
public struct PictureLayout: Sendable, Equatable {
    /// What to draw.
    public enum Kind: Sendable, Equatable {
        case picture
        case overlay
    }

    public let kind: Kind
    public let width: Double
    public let height: Double
    public let map: MapFrame
    /// Header band (title, statistics); zero height for an overlay.
    public let headerHeight: Double
    /// Where the legend's text sits, beneath the map (pictures only).
    public let legendBaseline: Double
    /// The profile's rectangle; `nil` for an overlay.
    public let profile: (x: Double, y: Double, width: Double, height: Double)?

    public static let margin = 16.0
    public static let header = 64.0
    public static let profileHeight = 170.0

    public static func == (a: PictureLayout, b: PictureLayout) -> Bool {
        a.kind == b.kind && a.width == b.width && a.height == b.height && a.map == b.map
    }

    /// Lays out a picture `width` pixels wide around `bounds` (the track and its events).
    public init(bounds: BoundingBox, width: Int, kind: Kind) {
        self.kind = kind
        self.width = Double(width)
        switch kind {
        case .picture:
            let inner = self.width - 2 * Self.margin
            map = MapFrame(
                fitting: bounds, origin: PicturePoint(Self.margin, Self.header), width: inner,
                heightRange: (0.45 * inner)...(1.1 * inner))
            headerHeight = Self.header
            legendBaseline = Self.header + map.height + 24
            let top = legendBaseline + 12
            profile = (Self.margin, top, inner, Self.profileHeight)
            height = top + Self.profileHeight + Self.margin
        case .overlay:
            map = MapFrame(
                fitting: bounds, origin: PicturePoint(0, 0), width: self.width,
                heightRange: (0.2 * self.width)...(3 * self.width), padding: 0.04, minimumSpan: 200)
            headerHeight = 0
            legendBaseline = 0
            profile = nil
            height = map.height
        }
    }
}
