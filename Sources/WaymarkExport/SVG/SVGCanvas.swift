import Foundation
import WaymarkCore

/// A `PictureCanvas` that writes SVG 1.1 text to a `TextSink` as it is drawn, so a path of any
/// length streams out without being held in memory.
///
/// Each painted path becomes one `<path>` (coordinates to 0.01 px, even–odd fill, round joins
/// and caps); text is `<text>` in DejaVu Sans (the font cairo uses for the PNG) with its halo as
/// a stroke painted first (`paint-order`); groups are `<g>` with their `id`, `class`, a
/// `<title>` tooltip and an optional clip rectangle.
public struct SVGCanvas<Sink: TextSink>: PictureCanvas {
    public private(set) var sink: Sink
    private var pathOpen = false
    private var clips = 0

    public init(sink: Sink, width: Double, height: Double) throws {
        self.sink = sink
        let w = Self.number(width)
        let h = Self.number(height)
        try self.sink.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" width="\(w)" height="\(h)" viewBox="0 0 \(w) \(h)">\n
            """)
    }

    public mutating func move(to point: PicturePoint) throws {
        try op("M" + Self.number(point.x) + " " + Self.number(point.y))
    }

    public mutating func line(to point: PicturePoint) throws {
        try op("L" + Self.number(point.x) + " " + Self.number(point.y))
    }

    public mutating func close() throws { try op("Z") }

    public mutating func circle(center: PicturePoint, radius: Double) throws {
        let r = Self.number(radius)
        let left = Self.number(center.x - radius)
        let right = Self.number(center.x + radius)
        let y = Self.number(center.y)
        try op("M\(right) \(y)A\(r) \(r) 0 1 0 \(left) \(y)A\(r) \(r) 0 1 0 \(right) \(y)Z")
    }

    private mutating func op(_ text: String) throws {
        if !pathOpen {
            try sink.write("<path d=\"")
            pathOpen = true
        }
        try sink.write(text)
    }

    public mutating func paint(fill: PictureColor?, stroke: PictureStroke?) throws {
        guard pathOpen else { return }
        pathOpen = false
        var attributes = "\""
        if let fill {
            attributes += " fill=\"\(fill.hex)\"" + Self.opacity("fill-opacity", fill.alpha) + " fill-rule=\"evenodd\""
        } else {
            attributes += " fill=\"none\""
        }
        if let stroke { attributes += Self.strokeAttributes(stroke) }
        try sink.write(attributes + "/>\n")
    }

    public mutating func text(_ text: String, at point: PicturePoint, style: PictureTextStyle) throws {
        var element = "<text x=\"\(Self.number(point.x))\" y=\"\(Self.number(point.y))\" font-family=\"DejaVu Sans, Verdana, sans-serif\""
        element += " font-size=\"\(Self.number(style.size))\" fill=\"\(style.color.hex)\"" + Self.opacity("fill-opacity", style.color.alpha)
        switch style.anchor {
        case .start: break
        case .middle: element += " text-anchor=\"middle\""
        case .end: element += " text-anchor=\"end\""
        }
        if style.bold { element += " font-weight=\"bold\"" }
        if let halo = style.halo {
            element += " paint-order=\"stroke\"" + Self.strokeAttributes(PictureStroke(halo, width: 3))
        }
        try sink.write(element + ">" + XMLText.escape(text) + "</text>\n")
    }

    /// An `<image>` with the PNG inline as a data URI.
    public mutating func image(png: [UInt8], x: Double, y: Double, width: Double, height: Double) throws {
        try sink.write(
            "<image x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\""
                + " preserveAspectRatio=\"none\" xlink:href=\"data:image/png;base64,\(Data(png).base64EncodedString())\"/>\n")
    }

    public mutating func beginGroup(
        id: String?, classes: String?, title: String?, clip: (origin: PicturePoint, width: Double, height: Double)?
    ) throws {
        var element = "<g"
        if let clip {
            clips += 1
            try sink.write(
                "<clipPath id=\"clip\(clips)\"><rect x=\"\(Self.number(clip.origin.x))\" y=\"\(Self.number(clip.origin.y))\""
                    + " width=\"\(Self.number(clip.width))\" height=\"\(Self.number(clip.height))\"/></clipPath>\n")
            element += " clip-path=\"url(#clip\(clips))\""
        }
        if let id { element += " id=\"\(XMLText.escape(id))\"" }
        if let classes { element += " class=\"\(XMLText.escape(classes))\"" }
        element += ">"
        if let title { element += "<title>\(XMLText.escape(title))</title>" }
        try sink.write(element + "\n")
    }

    public mutating func endGroup() throws { try sink.write("</g>\n") }

    public mutating func finish() throws {
        try sink.write("</svg>\n")
        try sink.flush()
    }

    private static func strokeAttributes(_ stroke: PictureStroke) -> String {
        var text = " stroke=\"\(stroke.color.hex)\"" + opacity("stroke-opacity", stroke.color.alpha)
        text += " stroke-width=\"\(number(stroke.width))\" stroke-linejoin=\"round\" stroke-linecap=\"round\""
        if !stroke.dash.isEmpty { text += " stroke-dasharray=\"\(stroke.dash.map { Decimal7.trimmed($0, decimals: 2) }.joined(separator: " "))\"" }
        return text
    }

    private static func opacity(_ name: String, _ alpha: Double) -> String {
        alpha < 1 ? " \(name)=\"\(Decimal7.trimmed(alpha, decimals: 3))\"" : ""
    }

    static func number(_ value: Double) -> String { Decimal7.trimmed(value, decimals: 2) }
}
