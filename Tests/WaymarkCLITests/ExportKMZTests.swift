import Foundation
import Testing
import WaymarkTestSupport

/// `--format kmz` read back by tools that are not Waymark: Python's zipfile (the archive and its
/// checksums), xmllint (OGC's KML schema), GDAL (the document through `/vsizip/`, the image).
@Suite struct ExportKMZTests {
    @Test func theKMZHoldsTheDocumentItsIconsAndTheOverlayByRelativePaths() async throws {
        let directory = try TemporaryDirectory()
        let kmz = directory.path("ride.kmz")
        try await ExportPictureTests.export("kmz", to: kmz)
        try await ExportPictureTests.export("overlay", to: directory.path("ride.png"))

        // The archive: intact, doc.kml first, every path the document names inside it.
        let listed = try await runPython(
            """
            import re, sys, zipfile
            archive = zipfile.ZipFile(sys.argv[1])
            assert archive.testzip() is None, "a bad checksum"
            names = archive.namelist()
            document = archive.read("doc.kml").decode()
            hrefs = re.findall(r"<href>([^<]+)</href>", document)
            missing = [h for h in hrefs if h not in names]
            open(sys.argv[2], "w").write(document)
            print(names[0], len(names), len(hrefs), missing, all(i.compress_type == zipfile.ZIP_STORED for i in archive.infolist()))
            """, [kmz, directory.path("doc.kml")])
        #expect(listed.stdout == "doc.kml 8 7 [] True\n", "\(listed.stdout)\(listed.stderr)")
        let document = try String(contentsOfFile: directory.path("doc.kml"), encoding: .utf8)
        #expect(!document.contains("http://maps.google.com"), "icons come from the archive")
        #expect(document.contains("<href>files/overlay.png</href>"))
        let valid = try await ExportReaders.validate(directory.path("doc.kml"), schema: "ogckml22.xsd")
        #expect(valid.status == 0, "\(valid.stderr)")

        // GDAL reads the document inside the archive: the track, the 14 crossings and the
        // visit's arrival and departure, and the 5 regions, as `--format kml` has them.
        let info = try await runProcess(URL(fileURLWithPath: "/usr/bin/ogrinfo"), ["-ro", "-al", "-so", "/vsizip/\(kmz)/doc.kml"])
        #expect(info.status == 0, "\(info.stderr)")
        let counts = Self.featureCounts(info.stdout)
        #expect(counts["Track"] == 1 && counts["Regions"] == 5 && (counts["Events"] ?? 0) >= 14, "\(counts)")

        // The overlay image is `--format overlay`'s picture, placed by the same box.
        let inside = try await runProcess(URL(fileURLWithPath: "/usr/bin/gdalinfo"), ["/vsizip/\(kmz)/files/overlay.png"])
        let alone = try await runProcess(URL(fileURLWithPath: "/usr/bin/gdalinfo"), [directory.path("ride.png")])
        let size = { (text: String) in text.split(separator: "\n").first { $0.hasPrefix("Size is") } }
        #expect(size(inside.stdout) != nil && size(inside.stdout) == size(alone.stdout), "\(inside.stdout)")
        let box = { (text: String) in text.range(of: "<LatLonBox>.*</LatLonBox>", options: .regularExpression).map { String(text[$0]) } }
        let overlayKML = try String(contentsOfFile: directory.path("ride.kml"), encoding: .utf8)
        #expect(box(document) != nil && box(document) == box(overlayKML))
    }

    @Test func aKMZCannotGoToStandardOutput() async throws {
        let result = try await runWaymark(["export", "Tracks/lakeside-ride.gpx", "--format", "kmz", "-o", "-"])
        #expect(result.status != 0 && result.stderr.contains("kmz cannot go to standard output"), "\(result.stderr)")
    }

    /// `Layer name: X` … `Feature Count: N` pairs of `ogrinfo -al -so`.
    static func featureCounts(_ text: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        var layer: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("Layer name: ") { layer = String(line.dropFirst("Layer name: ".count)) }
            if line.hasPrefix("Feature Count: "), let layer { counts[layer] = Int(line.dropFirst("Feature Count: ".count)) }
        }
        return counts
    }
}
