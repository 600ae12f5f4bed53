import CCairo
import WaymarkExport

/// A `PictureCanvas` that draws with cairo onto a 32-bit ARGB image and writes it as a PNG
/// file in `finish()`.
///
/// Paths fill with the even–odd rule (holes stay open) and stroke with round joins and caps;
/// text uses cairo's toy font API with DejaVu Sans (fontconfig picks a fallback when it is
/// missing), a halo being the text's outline stroked first. Groups only matter for clipping.
/// Not thread-safe: one picture is drawn on one thread.
public final class CairoCanvas: PictureCanvas {
    public let width: Int
    public let height: Int
    /// Where `finish()` writes the PNG.
    public let path: String
    private let surface: OpaquePointer
    private let context: OpaquePointer
    /// For each open group, whether it saved the state for a clip.
    private var groups: [Bool] = []

    /// A transparent `width` × `height` picture to be written to `path`.
    public init(width: Int, height: Int, path: String) throws(RenderError) {
        guard width > 0, height > 0, width <= 32_767, height <= 32_767 else {
            throw RenderError(message: "a picture must be 1…32767 pixels each way, not \(width) × \(height)")
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw RenderError(message: "cairo could not create a \(width) × \(height) image")
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            throw RenderError(message: "cairo could not create a \(width) × \(height) image: \(Self.describe(status))")
        }
        self.surface = surface
        self.context = context
        self.width = width
        self.height = height
        self.path = path
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
        cairo_set_fill_rule(context, CAIRO_FILL_RULE_EVEN_ODD)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    public func move(to point: PicturePoint) { cairo_move_to(context, Self.bounded(point.x), Self.bounded(point.y)) }

    public func line(to point: PicturePoint) { cairo_line_to(context, Self.bounded(point.x), Self.bounded(point.y)) }

    /// The largest distance from the origin a coordinate is passed to cairo with: just inside
    /// cairo's 24.8 fixed point (±8,388,608 px), so every coordinate cairo can represent is drawn
    /// as before, and one it cannot (10¹⁷, infinity; issue 48) reaches it as the nearest it can
    /// instead of overflowing in its rasteriser.
    static let coordinateLimit = 8_000_000.0

    /// `value` clamped to ±`coordinateLimit`, 0 when not a number.
    static func bounded(_ value: Double) -> Double {
        value.isNaN ? 0 : min(coordinateLimit, max(-coordinateLimit, value))
    }

    public func close() { cairo_close_path(context) }

    public func circle(center: PicturePoint, radius: Double) {
        cairo_new_sub_path(context)
        cairo_arc(context, Self.bounded(center.x), Self.bounded(center.y), max(0, Self.bounded(radius)), 0, 2 * Double.pi)
        cairo_close_path(context)
    }

    public func paint(fill: PictureColor?, stroke: PictureStroke?) {
        if let fill {
            set(fill)
            if stroke == nil { cairo_fill(context) } else { cairo_fill_preserve(context) }
        }
        if let stroke {
            set(stroke.color)
            cairo_set_line_width(context, stroke.width)
            stroke.dash.withUnsafeBufferPointer { cairo_set_dash(context, $0.baseAddress, Int32($0.count), 0) }
            cairo_stroke(context)
            cairo_set_dash(context, nil, 0, 0)
        }
        cairo_new_path(context)
    }

    public func text(_ text: String, at point: PicturePoint, style: PictureTextStyle) {
        cairo_select_font_face(
            context, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, style.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, style.size)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        var x = Self.bounded(point.x)
        let y = Self.bounded(point.y)
        switch style.anchor {
        case .start: break
        case .middle: x -= extents.x_advance / 2
        case .end: x -= extents.x_advance
        }
        cairo_move_to(context, x, y)
        if let halo = style.halo {
            cairo_text_path(context, text)
            set(halo)
            cairo_set_line_width(context, 3)
            cairo_stroke(context)
            cairo_move_to(context, x, y)
        }
        set(style.color)
        cairo_show_text(context, text)
        cairo_new_path(context)
    }

    public func beginGroup(
        id: String?, classes: String?, title: String?, clip: (origin: PicturePoint, width: Double, height: Double)?
    ) {
        guard let clip else {
            groups.append(false)
            return
        }
        cairo_save(context)
        cairo_rectangle(
            context, Self.bounded(clip.origin.x), Self.bounded(clip.origin.y), Self.bounded(clip.width), Self.bounded(clip.height))
        cairo_clip(context)
        groups.append(true)
    }

    public func endGroup() {
        if groups.popLast() == true { cairo_restore(context) }
    }

    /// Draws a PNG (a basemap's tile) stretched over the rectangle; an image cairo cannot read
    /// is an error naming the rectangle.
    public func image(png: [UInt8], x: Double, y: Double, width: Double, height: Double) throws(RenderError) {
        let reader = PNGReader(png)
        let image = cairo_image_surface_create_from_png_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
            return Unmanaged<PNGReader>.fromOpaque(closure).takeUnretainedValue().read(into: data, count: Int(length))
                ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_READ_ERROR
        }, Unmanaged.passUnretained(reader).toOpaque())
        guard let image else { throw RenderError(message: "cairo could not read an image") }
        defer { cairo_surface_destroy(image) }
        let status = cairo_surface_status(image)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError(message: "an image at \(x),\(y) is not a PNG cairo reads: \(Self.describe(status))")
        }
        let (w, h) = (Double(cairo_image_surface_get_width(image)), Double(cairo_image_surface_get_height(image)))
        guard w > 0, h > 0 else { return }
        cairo_save(context)
        cairo_new_path(context)
        cairo_translate(context, x, y)
        cairo_scale(context, width / w, height / h)
        cairo_set_source_surface(context, image, 0, 0)
        // Neighbouring tiles meet without seams: their edge pixels are not blended with nothing.
        cairo_pattern_set_extend(cairo_get_source(context), CAIRO_EXTEND_PAD)
        cairo_rectangle(context, 0, 0, w, h)
        cairo_set_antialias(context, CAIRO_ANTIALIAS_NONE)
        cairo_fill(context)
        cairo_restore(context)
    }

    /// Makes the picture transparent again, to draw another on the same canvas (tiles).
    public func clear() {
        cairo_save(context)
        cairo_set_operator(context, CAIRO_OPERATOR_CLEAR)
        cairo_paint(context)
        cairo_restore(context)
        cairo_new_path(context)
    }

    /// Whether nothing has been drawn: every pixel fully transparent.
    public var isBlank: Bool {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return true }
        let stride = Int(cairo_image_surface_get_stride(surface))
        for row in 0..<height {
            let line = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width where line[column] >> 24 != 0 { return false }
        }
        return true
    }

    /// The picture as PNG bytes, without a file.
    public func pngData() throws(RenderError) -> [UInt8] {
        cairo_surface_flush(surface)
        let drawing = cairo_status(context)
        guard drawing == CAIRO_STATUS_SUCCESS else {
            throw RenderError(message: "cairo failed while drawing: \(Self.describe(drawing))")
        }
        let buffer = PNGBuffer()
        let status = cairo_surface_write_to_png_stream(surface, { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<PNGBuffer>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(buffer).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError(message: "cannot encode the picture as PNG: \(Self.describe(status))")
        }
        return buffer.bytes
    }

    /// Writes the PNG to `path`.
    public func finish() throws(RenderError) {
        cairo_surface_flush(surface)
        let drawing = cairo_status(context)
        guard drawing == CAIRO_STATUS_SUCCESS else {
            throw RenderError(message: "cairo failed while drawing: \(Self.describe(drawing))")
        }
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError(message: "cannot write \(path): \(Self.describe(status))")
        }
    }

    private func set(_ color: PictureColor) {
        cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
    }

    static func describe(_ status: cairo_status_t) -> String {
        String(cString: cairo_status_to_string(status))
    }
}

/// What `cairo_image_surface_create_from_png_stream` reads from.
private final class PNGReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        guard count <= bytes.count - offset else { return false }
        bytes.withUnsafeBufferPointer { source in buffer.update(from: source.baseAddress! + offset, count: count) }
        offset += count
        return true
    }
}

/// What `cairo_surface_write_to_png_stream` writes into.
private final class PNGBuffer {
    var bytes: [UInt8] = []
}

/// Why a picture could not be drawn or written.
public struct RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
