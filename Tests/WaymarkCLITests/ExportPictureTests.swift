import Foundation
import Testing
import WaymarkTestSupport

/// The pictures: the SVG checked element by element, the PNG decoded by hand (zlib and struct
/// in Python, not cairo), the overlay placed by GDAL through its world file.
@Suite struct ExportPictureTests {
    /// Decodes an 8-bit RGB or RGBA PNG (cairo writes RGB when nothing is transparent) and
    /// prints `width height opaque distinct notPaper` (pixels unlike the top-left one).
    static let pngReader = #"""
        import struct, sys, zlib
        data = open(sys.argv[1], "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        pos, idat = 8, b""
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b"IHDR":
                width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
                assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
                bpp = 4 if colour == 6 else 3
            elif kind == b"IDAT":
                idat += body
            pos += 12 + length
        raw = zlib.decompress(idat)
        stride = width * bpp
        rows, previous, i = [], bytearray(stride), 0
        for _ in range(height):
            kind = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = previous[x]
                c = previous[x - bpp] if x >= bpp else 0
                if kind == 1: line[x] = (line[x] + a) & 255
                elif kind == 2: line[x] = (line[x] + b) & 255
                elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(bytes(line)); previous = line
        pixels = [row[x:x + bpp] for row in rows for x in range(0, stride, bpp)]
        opaque = sum(1 for p in pixels if bpp == 3 or p[3] > 0)
        print(width, height, opaque, len(set(pixels)), sum(1 for p in pixels if p != pixels[0]))
        """#

    static func export(_ format: String, to path: String, extra: [String] = []) async throws {
        let result = try await runWaymark(["export", "Tracks/lakeside-ride.gpx", "--regions", "Regions", "--format", format, "-o", path] + extra)
        try #require(result.status == 0, "\(result.stderr)")
    }

    @Test func theSVGHasTheRouteRegionsMarkersAndProfile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("ride.svg")
        try await Self.export("svg", to: path, extra: ["--width", "1000"])
        let check = try await runPython(#"""
            import re, sys, xml.etree.ElementTree as ET
            ns = "{http://www.w3.org/2000/svg}"
            root = ET.parse(sys.argv[1]).getroot()
            width, height = float(root.get("width")), float(root.get("height"))
            groups = {g.get("id"): g for g in root.iter(ns + "g") if g.get("id")}
            classes = [g.get("class") for g in root.iter(ns + "g") if g.get("class")]
            clip = root.find(ns + "clipPath/" + ns + "rect")
            x0, y0 = float(clip.get("x")), float(clip.get("y"))
            x1, y1 = x0 + float(clip.get("width")), y0 + float(clip.get("height"))
            route = [p for p in groups["route"].iter(ns + "path")]
            numbers = [float(n) for p in route for n in re.findall(r"-?[\d.]+", p.get("d"))]
            xs, ys = numbers[0::2], numbers[1::2]
            inside = all(x0 <= x <= x1 for x in xs) and all(y0 <= y <= y1 for y in ys)
            texts = " ".join(t.text or "" for t in root.iter(ns + "text"))
            print(width, height, sorted(groups), classes.count("marker enter"), classes.count("marker exit"),
                  classes.count("marker start"), classes.count("marker end"), classes.count("region"),
                  len(xs), inside, "km" in texts, "N" in texts.split())
            """#, [path])
        #expect(check.status == 0, "\(check.stderr)")
        // README's replay of this ride: 7 entries and 7 exits over the 5 regions.
        #expect(check.stdout.hasPrefix("1000.0 "), "\(check.stdout)")
        #expect(check.stdout.contains("['header', 'legend', 'map', 'markers', 'north-arrow', 'profile', 'profile-regions', 'region-labels', 'regions', 'route', 'scale-bar'] 7 7 1 1 5"), "\(check.stdout)")
        #expect(check.stdout.hasSuffix("True True True\n"), "route outside the map or labels missing: \(check.stdout)")
        let valid = try await runProcess(URL(fileURLWithPath: "/usr/bin/xmllint"), ["--noout", path])
        #expect(valid.status == 0, "\(valid.stderr)")
    }

    /// The profile shades each stretch inside a region in the colour the map fills the region
    /// with: one band per entry (7 on this ride) and one for the trailhead it starts in, each
    /// within the plot, a region's bands never overlapping each other.
    @Test func theProfileShadesTheStretchesInsideEachRegion() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("ride.svg")
        try await ExportPictureTests.export("svg", to: path, extra: ["--width", "1000"])
        let check = try await runPython(#"""
            import re, sys, xml.etree.ElementTree as ET
            ns = "{http://www.w3.org/2000/svg}"
            root = ET.parse(sys.argv[1]).getroot()
            def fill(group):
                shape = next(e for e in group.iter() if e.get("fill") not in (None, "none"))
                return shape.get("fill")
            regions = {g.find(ns + "title").text: fill(g) for g in root.iter(ns + "g") if g.get("class") == "region"}
            bands = []
            for g in root.iter(ns + "g"):
                if g.get("class") != "profile-region":
                    continue
                title = g.find(ns + "title").text
                name = re.match(r"Inside (\S+) from", title).group(1)
                bands.append((name, fill(g), title))
            same = all(colour == regions[name] for name, colour, _ in bands)
            names = sorted(name for name, _, _ in bands)
            print(len(bands), same, names)
            """#, [path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(
            check.stdout == "8 True ['forest', 'forest', 'hut', 'reserve', 'reserve', 'trailhead', 'trailhead', 'village']\n",
            "\(check.stdout)")
    }

    @Test func thePNGHasItsSizeAndIsNotBlank() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("ride.png")
        try await Self.export("png", to: path, extra: ["--width", "800"])
        let png = try await runPython(Self.pngReader, [path])
        let numbers = png.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(numbers.count == 5, "\(png.stdout)\(png.stderr)")
        #expect(numbers[0] == 800 && numbers[1] > 600, "size \(numbers[0]) × \(numbers[1])")
        #expect(numbers[2] == numbers[0] * numbers[1], "the picture is opaque")
        #expect(numbers[3] > 200, "\(numbers[3]) colours")
        #expect(numbers[4] > numbers[0] * numbers[1] / 2, "mostly paper: \(numbers[4]) pixels drawn")
    }

    /// The overlay is transparent but where it draws, and GDAL places it through its world file:
    /// the pixel under the ride's first point (the start marker) is opaque, a far corner is not.
    @Test func theOverlayIsGeoreferenced() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("ride.png")
        try await Self.export("overlay", to: path)
        for sidecar in ["ride.pgw", "ride.kml"] {
            #expect(FileManager.default.fileExists(atPath: directory.path(sidecar)), "no \(sidecar)")
        }
        let start = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/gdallocationinfo"), ["-valonly", "-geoloc", path, "8.6700161", "47.355972"])
        #expect(start.stdout.split(separator: "\n").last == "255", "alpha under the start: \(start.stdout)\(start.stderr)")
        let info = try await runProcess(URL(fileURLWithPath: "/usr/bin/gdalinfo"), [path])
        let corner = try #require(info.stdout.split(separator: "\n").first { $0.hasPrefix("Upper Left") })
        let far = try await runProcess(URL(fileURLWithPath: "/usr/bin/gdallocationinfo"), ["-valonly", path, "2", "2"])
        #expect(far.stdout.split(separator: "\n").last == "0", "corner \(corner): \(far.stdout)")
        let kml = try await ExportReaders.validate(directory.path("ride.kml"), schema: "ogckml22.xsd")
        #expect(kml.status == 0, "\(kml.stderr)")
        let overlay = try String(contentsOfFile: directory.path("ride.kml"), encoding: .utf8)
        #expect(overlay.contains("<href>ride.png</href>"))
    }
}
