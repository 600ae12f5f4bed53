import Foundation
import Testing
import WaymarkImport
import WaymarkTestSupport

/// `ImportFormat.detect` on small prefixes of every format, on near-misses, and on the
/// third-party files in ../shared/data.
@Suite struct FormatDetectionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        var format: ImportFormat?
        var testDescription: String { "\(format.map(\.rawValue) ?? "none"): \(text.prefix(40))" }
        init(_ text: String, _ format: ImportFormat?) {
            self.text = text
            self.format = format
        }
    }

    static let cases: [Case] = [
        // XML: the root element decides, after a byte order mark, declaration, comments and doctype.
        .init("\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- made by hand -->\n<gpx version=\"1.1\">", .gpx),
        .init("<gpx xmlns=\"http://www.topografix.com/GPX/1/0\"/>", .gpx),
        .init("<?xml version=\"1.0\"?><!DOCTYPE kml [<!ENTITY a \"b\">]><kml xmlns=\"http://www.opengis.net/kml/2.2\">", .kml),
        .init("<?xml version='1.0'?>\r\n<kml:kml xmlns:kml=\"http://www.opengis.net/kml/2.2\">", .kml),
        .init("<?xml version=\"1.0\"?>\n<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\">", .tcx),
        .init("<?xml version=\"1.0\"?>\n<osm version=\"0.6\">", nil),
        .init("<!DOCTYPE html>\n<html><head><title>Takeout</title>", nil),
        .init("<?xml version=\"1.0\"?>\n<!-- a comment the prefix cuts", nil),
        // Line formats, after gpsfake's # header lines.
        .init("# Name: u-blox\n# Date: 2006\n#\n$GPZDA,030807.00,10,08,2006,00,00*67\n", .nmea),
        .init("!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26\n", .nmea),
        .init("$PGRME,15.0,M,45.0,M,25.0,M*1C\r\n", .nmea),
        .init("3.0,M*1C\n$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\n", .nmea),
        .init("$ not a sentence\n", nil),
        .init("$PSRFTXTVersion GSW3.2.2_3.1.00.12-SDK003P1.01a *78\n", .nmea),
        .init("\u{B5}b\u{1}\u{7}junk\n$GNGSA,A,3,80,70,73,79,69,71,,,,,,,1.71,1.01,1.38*1D\n$GLGSV,3,3,09,88,07,028,*51\n$GNZDA,000942.00,10,01,2017,00,00*73\n", .nmea),
        .init("\u{B5}b\u{1}\u{7}junk\n$GNGSA,A,3,80,70,73,79,69,71,,,,,,,1.71,1.01,1.38*1E\n$GLGSV,3,3,09,88,07,028,*51\n$GNZDA,000942.00,10,01,2017,00,00*73\n", nil),
        .init("{\"class\":\"VERSION\",\"release\":\"3.22\"}\n{\"class\":\"TPV\"}\n", .gpsdLog),
        .init("# gpsd log\n{ \"class\" : \"TPV\", \"mode\": 3}\n", .gpsdLog),
        .init("2015-09-28T13:49:43Z\t*                 \t{\"_type\":\"location\",\"lat\":48.85}\n", .owntracksRecorder),
        .init("2015-09-28T13:49:43Z *\t{}\n", nil),
        // JSON: the reader decides which kind, whatever its keys.
        .init("\u{FEFF}  {\"locations\": [", .json),
        .init("\n[{\"startTime\": \"2024\"", .json),
        .init("{\"unknown\": true}", .json),
        .init("{\"type\": \"FeatureCollection\", \"features\": []}", .json),
        // CSV: a header naming latitude and longitude columns.
        .init("lat,lon,time\n47.1,8.1,2024-01-01T00:00:00Z\n", .csv),
        .init("\"Latitude\";\"Longitude\";\"Date\"\n", .csv),
        .init("time\tlat_deg\tlng_deg\n", .csv),
        .init("Timestamp,Latitude (deg),Longitude (deg),Speed (km/h)\n", .csv),
        .init("GPS_Lat,GPS_Long\n", .csv),
        .init("date,steps,calories\n", nil),
        .init("latitude only,and more\n", nil),
        .init("hello world\n", nil),
        .init("", nil),
        .init("   \n\n", nil),
    ]

    @Test(arguments: cases)
    func theContentDecides(_ example: Case) {
        #expect(ImportFormat.detect(Array(example.text.utf8)) == example.format)
    }

    @Test func aFITHeaderIsRecognisedAndBinaryNearMissesAreNot() {
        let fit: [UInt8] = [14, 0x20, 0x5C, 0x08, 0x10, 0, 0, 0] + Array(".FIT".utf8) + [0, 0]
        #expect(ImportFormat.detect(fit) == .fit)
        #expect(ImportFormat.detect(Array(fit.prefix(11))) == nil)
        #expect(ImportFormat.detect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) == nil)
        #expect(ImportFormat.detect([0x50, 0x4B, 0x03, 0x04, 20, 0]) == nil)
        #expect(ImportFormat.detect([0x1F, 0x8B, 8, 0]) == nil)
        #expect(ImportFormat.detect([0, 0xFF, 0x10]) == nil)
    }

    /// Real GPX, gpsd regression logs (NMEA after `#` headers; one SiRF binary log that is not
    /// NMEA) and GeoJSON, each from its first 16 KiB.
    @Test func theThirdPartyFilesAreRecognised() throws {
        let files = try sharedFiles()
        guard !files.isEmpty else { return }  // ../shared/data is absent: nothing to check
        for (path, expected) in files {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            let prefix = Array(handle.readData(ofLength: ImportFormat.detectionPrefixLength))
            try handle.close()
            #expect(ImportFormat.detect(prefix) == expected, "\(path)")
        }
    }

    private func sharedFiles() throws -> [(String, ImportFormat?)] {
        var files: [(String, ImportFormat?)] = []
        for (folder, suffix, format) in [("gpx", ".gpx", ImportFormat.gpx), ("nmea/gpsd-3.22", ".log", .nmea), ("geojson", "json", .json)] {
            let url = ProjectPaths.sharedData(folder)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { continue }
            for name in names.sorted() where name.hasSuffix(suffix) {
                files.append((url.appendingPathComponent(name).path, name == "bu303-moving.log" ? nil : format))
            }
        }
        return files
    }

    @Test func theSkippedListSaysWhatAFileLooksLike() throws {
        let folder = try TemporaryDirectory(prefix: "waymark-import-describe")
        try folder.write("page.html", "<html><body>")
        try folder.write("map.osm", "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">")
        try folder.write("data.bin", bytes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
        try folder.write("wide.txt", bytes: [0xFF, 0xFE, 0x3C, 0])
        try folder.write("only-comments.log", "# Name: nothing\n#\n")
        try folder.write("long.txt", String(repeating: "x", count: 100))
        let reasons = try ImportSources.entries(for: [folder.url.path]).skipped.map(\.reason)
        #expect(reasons == [
            "binary data (00 01 02 03 04 05 06 07…)",
            "text beginning \"\(String(repeating: "x", count: 60))…\"",
            "XML whose root element is <osm>, not <gpx>, <kml> or <TrainingCenterDatabase>",
            "text with only blank and # comment lines",
            "an HTML document",
            "UTF-16 text (convert it to UTF-8)",
        ])
    }
}
