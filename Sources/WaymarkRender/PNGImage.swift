import CCairo

/// A PNG file read back with cairo: its size and how many of its pixels are drawn on, for
/// tests and checks that a picture is not blank.
public struct PNGImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Pixels that are not fully transparent.
    public let opaquePixels: Int
    /// Distinct ARGB values (capped at 4,096).
    public let distinctColours: Int

    public init(path: String) throws(RenderError) {
        guard let surface = cairo_image_surface_create_from_png(path) else {
            throw RenderError(message: "cairo could not read \(path)")
        }
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError(message: "cannot read \(path) as PNG: \(CairoCanvas.describe(status))")
        }
        cairo_surface_flush(surface)
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        var opaque = 0
        var colours = Set<UInt32>()
        if let data = cairo_image_surface_get_data(surface) {
            for row in 0..<height {
                let line = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
                for column in 0..<width {
                    let pixel = line[column]
                    if pixel >> 24 != 0 { opaque += 1 }
                    if colours.count < 4096 { colours.insert(pixel) }
                }
            }
        }
        opaquePixels = opaque
        distinctColours = colours.count
    }
}
