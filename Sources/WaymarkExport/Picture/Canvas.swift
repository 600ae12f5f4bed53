/// A point on a picture, in pixels from the top-left corner (y grows downwards).
public struct PicturePoint: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// An sRGB colour with alpha, components 0…1.
public struct PictureColor: Sendable, Equatable {
    public var red, green, blue, alpha: Double

    /// From `0xRRGGBB`.
    public init(_ rgb: UInt32, alpha: Double = 1) {
        red = Double((rgb >> 16) & 0xff) / 255
        green = Double((rgb >> 8) & 0xff) / 255
        blue = Double(rgb & 0xff) / 255
        self.alpha = alpha
    }

    public func with(alpha: Double) -> PictureColor {
        var copy = self
        copy.alpha = alpha
        return copy
    }

    /// `#rrggbb`.
    public var hex: String {
        let digits = "0123456789abcdef".map { $0 }
        var text = "#"
        for component in [red, green, blue] {
            let value = (component * 255).roundedInteger(clampedTo: 0...255) ?? 0
            text.append(digits[value >> 4])
            text.append(digits[value & 15])
        }
        return text
    }
}

/// How a path's outline is drawn: colour, width in pixels, dashes, round joins and caps.
public struct PictureStroke: Sendable, Equatable {
    public var color: PictureColor
    public var width: Double
    public var dash: [Double]

    public init(_ color: PictureColor, width: Double, dash: [Double] = []) {
        self.color = color
        self.width = width
        self.dash = dash
    }
}

/// How text is set: size in pixels, colour, where `at` is on the text's baseline, weight, and
/// an optional halo (an outline in another colour, so labels stay readable over the map).
public struct PictureTextStyle: Sendable, Equatable {
    public enum Anchor: Sendable { case start, middle, end }
    public var size: Double
    public var color: PictureColor
    public var anchor: Anchor
    public var bold: Bool
    public var halo: PictureColor?

    public init(size: Double, color: PictureColor, anchor: Anchor = .start, bold: Bool = false, halo: PictureColor? = nil) {
        self.size = size
        self.color = color
        self.anchor = anchor
        self.bold = bold
        self.halo = halo
    }
}

/// What a picture is drawn on: SVG text (`SVGCanvas`) or cairo's pixels (WaymarkRender). The
/// painters build paths with `move`/`line`/`circle`/`close` and `paint` them; groups name the
/// parts (SVG keeps them as `<g id=… class=…>`, cairo ignores them).
public protocol PictureCanvas {
    /// Starts a new subpath of the current path.
    mutating func move(to point: PicturePoint) throws
    mutating func line(to point: PicturePoint) throws
    /// Closes the current subpath.
    mutating func close() throws
    /// Adds a whole circle as a subpath.
    mutating func circle(center: PicturePoint, radius: Double) throws
    /// Fills (even–odd, so holes stay open) and/or strokes the current path, then clears it.
    mutating func paint(fill: PictureColor?, stroke: PictureStroke?) throws
    mutating func text(_ text: String, at point: PicturePoint, style: PictureTextStyle) throws
    /// Draws a PNG image stretched over the rectangle (a basemap's tile).
    mutating func image(png: [UInt8], x: Double, y: Double, width: Double, height: Double) throws
    /// Starts a named group; with `clip`, drawing inside it is limited to that rectangle.
    mutating func beginGroup(id: String?, classes: String?, title: String?, clip: (origin: PicturePoint, width: Double, height: Double)?) throws
    mutating func endGroup() throws
    /// Completes the picture (writes the SVG's end, or the PNG file).
    mutating func finish() throws
}

extension PictureCanvas {
    /// A group without clipping.
    public mutating func beginGroup(id: String? = nil, classes: String? = nil, title: String? = nil) throws {
        try beginGroup(id: id, classes: classes, title: title, clip: nil)
    }

    /// Adds a closed polygon through `points`.
    public mutating func polygon(_ points: [PicturePoint]) throws {
        guard let first = points.first else { return }
        try move(to: first)
        for point in points.dropFirst() { try line(to: point) }
        try close()
    }

    /// Adds an axis-aligned rectangle.
    public mutating func rectangle(x: Double, y: Double, width: Double, height: Double) throws {
        try polygon([PicturePoint(x, y), PicturePoint(x + width, y), PicturePoint(x + width, y + height), PicturePoint(x, y + height)])
    }
}
