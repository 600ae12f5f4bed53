import Foundation
import WaymarkCore
import WaymarkExport
import WaymarkRender

extension ExportJob {
    /// `--format kmz`: the overlay picture (transparent map, as `--format overlay` draws it), the
    /// KML document naming it as a `GroundOverlay` and the event icons by paths inside the
    /// archive, and the icons drawn as the picture's markers; zipped with `doc.kml` first, as
    /// KMZ readers expect. The input is read once for the picture and once for the document.
    static func writeKMZ(_ overview: TrackOverview, from input: any TrackInput, options: ExportOptions, to path: String) throws -> Int {
        let layout = try pictureLayout(overview, options: options, kind: .overlay)
        let scratch = path + ".parts"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: scratch) }

        let overlay = scratch + "/overlay.png"
        let canvas = try CairoCanvas(width: Int(layout.width), height: Int(layout.height.rounded()), path: overlay)
        let picture = MapPicture(canvas: canvas, layout: layout, overview: overview, basemap: try basemap(for: layout, options: options))
        _ = try stream(overview, from: input, options: options, into: picture)

        let document = BufferSink()
        let written = try stream(
            overview, from: input, options: options, into: try KMLWriter(sink: document, overview: overview, embedding: KMLEmbedding(overlay: layout.map)))

        var archive = ZipArchive()
        archive.add("doc.kml", Array(document.text.utf8))
        archive.add(KMLEmbedding.overlayPath, try Self.contents(of: overlay))
        for style in KMLEmbedding.iconStyles {
            let icon = scratch + "/\(style).png"
            var canvas = try CairoCanvas(width: KMLEmbedding.iconSize, height: KMLEmbedding.iconSize, path: icon)
            try KMLEmbedding.drawIcon(style, on: &canvas)
            archive.add(KMLEmbedding.iconPath(style), try Self.contents(of: icon))
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(archive.bytes)) else {
            throw ExportError(.output, "-o \(options.outputPath): cannot write the archive")
        }
        return written
    }

    private static func contents(of path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ExportError(.output, "cannot read back \(path) for the archive")
        }
        return Array(data)
    }
}

/// A text sink kept by reference: a writer that takes its sink by value still fills this one.
final class BufferSink: TextSink {
    private(set) var text = ""

    func write(_ text: String) { self.text += text }

    func flush() {}
}
