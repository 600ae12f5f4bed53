import Foundation
import Testing
import WaymarkCore
import WaymarkImport
import WaymarkTestSupport

/// The KML, TCX and track-log tests' files and helpers: samples beside these tests, the shared
/// third-party data, an independent reader (gpsbabel) when it is installed, and generated
/// documents of any size.
enum XMLTrackSamples {
    /// A sample written for these tests, in `Samples/`.
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Samples/\(name)").path
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// A third-party file under `../shared/data`, or nil when it is not there.
    static func shared(_ relativePath: String) -> String? {
        let path = ProjectPaths.sharedData(relativePath).path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    static var hasSharedData: Bool { shared("MANIFEST.md") != nil }

    /// Every fix `reader` gives, and the error it stopped with, if any.
    static func readAll<Reader: HistoryReader>(_ reader: inout Reader) -> (fixes: [Fix], error: ImportError?) {
        var fixes: [Fix] = []
        do {
            while let item = try reader.next() {
                guard case .fix(let fix) = item else {
                    Issue.record("a track reader returned \(item)")
                    continue
                }
                fixes.append(fix)
            }
            return (fixes, nil)
        } catch {
            return (fixes, error)
        }
    }

    static func time(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }

    /// Reads every prefix of `bytes` cut at every `stride`-th byte (and with one byte changed
    /// there) with the default buffer and a 7-byte one, as the fuzz target does for GPX: the two
    /// must give the same fixes and the same error, and every prefix of a complete document
    /// must stop with an error after the fixes of the whole document's start.
    static func checkCuts<Reader: HistoryReader>(
        _ bytes: [UInt8], stride: Int, _ make: ([UInt8], Int) -> Reader
    ) {
        var whole = make(bytes, 1 << 18)
        let complete = readAll(&whole).fixes
        for cut in Swift.stride(from: 0, to: bytes.count, by: stride) {
            var changed = bytes
            changed[cut] = changed[cut] == UInt8(ascii: "<") ? UInt8(ascii: "x") : UInt8(ascii: "<")
            for input in [Array(bytes[..<cut]), changed] {
                var big = make(input, 1 << 18)
                var small = make(input, 7)
                let a = readAll(&big)
                let b = readAll(&small)
                #expect(a.fixes == b.fixes, "cut at \(cut)")
                #expect(a.error == b.error, "cut at \(cut)")
                if input.count == cut {
                    #expect(a.error != nil, "a document cut at \(cut) read without an error")
                    #expect(Array(complete.prefix(a.fixes.count)) == a.fixes, "cut at \(cut)")
                }
            }
        }
    }

    // MARK: - gpsbabel

    static let gpsbabel = "/usr/bin/gpsbabel"
    static var hasGpsbabel: Bool { FileManager.default.isExecutableFile(atPath: gpsbabel) }

    /// One track point as gpsbabel's `unicsv` writes it.
    struct BabelPoint: Equatable {
        var latitude: Double
        var longitude: Double
        var altitude: Double?
        var speed: Double?
        var time: Timestamp?
    }

    /// The track points gpsbabel reads from `path` in its input format `format` (`kml`, `gtrnctr`).
    static func babelTrackPoints(_ path: String, format: String) throws -> [BabelPoint] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gpsbabel)
        process.arguments = ["-t", "-i", format, "-f", path, "-o", "unicsv,utc=0", "-F", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var lines = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isNewline).map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        guard !lines.isEmpty else { return [] }
        let header = lines.removeFirst()
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        let lat = try #require(column("Latitude"))
        let lon = try #require(column("Longitude"))
        return lines.map { row in
            var point = BabelPoint(latitude: Double(row[lat])!, longitude: Double(row[lon])!)
            if let k = column("Altitude") { point.altitude = Double(row[k]) }
            if let k = column("Speed") { point.speed = Double(row[k]) }
            if let d = column("Date"), let t = column("Time"), !row[d].isEmpty {
                point.time = Timestamp(rfc3339: row[d].replacingOccurrences(of: "/", with: "-") + "T" + row[t] + "Z")
            }
            return point
        }
    }

    /// Whether `fix` is `point` to gpsbabel's precision (6 decimals, 0.1 m, milliseconds).
    static func agree(_ fix: Fix, _ point: BabelPoint) -> Bool {
        abs(fix.coordinate.latitude - point.latitude) < 1e-6 && abs(fix.coordinate.longitude - point.longitude) < 1e-6
            && (fix.altitude.map { abs($0 - (point.altitude ?? .nan)) < 0.051 } ?? (point.altitude == nil))
            && fix.time == point.time
    }

    // MARK: - Generated documents

    /// A Google-Earth-shaped KML of `points` track points in tracks of 1000, times 1 s apart.
    static func generatedKML(points: Int) -> [UInt8] {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
            <Document><name>generated</name>
            <Placemark><name>track</name><gx:MultiTrack><altitudeMode>absolute</altitudeMode>

            """
        var k = 0
        while k < points {
            let n = min(1000, points - k)
            text += "<gx:Track>\n"
            for i in k..<k + n { text += "<when>\(stamp(i))</when>\n" }
            for i in k..<k + n {
                let (lat, lon) = position(i)
                text += "<gx:coord>\(lon) \(lat) \(Double(i % 500) / 4)</gx:coord>\n"
            }
            text += "</gx:Track>\n"
            k += n
        }
        text += "</gx:MultiTrack></Placemark></Document></kml>\n"
        return Array(text.utf8)
    }

    /// A Garmin-shaped TCX of `points` trackpoints, times 1 s apart, every 50th without a position.
    static func generatedTCX(points: Int) -> [UInt8] {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">
            <Activities><Activity Sport="Running"><Id>\(stamp(0))</Id><Lap StartTime="\(stamp(0))"><Track>

            """
        for i in 0..<points {
            let (lat, lon) = position(i)
            text += "<Trackpoint>\n<Time>\(stamp(i))</Time>\n"
            if i % 50 != 49 {
                text += "<Position>\n<LatitudeDegrees>\(lat)</LatitudeDegrees>\n<LongitudeDegrees>\(lon)</LongitudeDegrees>\n</Position>\n"
                text += "<AltitudeMeters>\(Double(i % 500) / 4)</AltitudeMeters>\n"
            }
            text += "<DistanceMeters>\(Double(i) * 2.5)</DistanceMeters>\n<HeartRateBpm><Value>\(100 + i % 60)</Value></HeartRateBpm>\n"
            text += "<Extensions><ns3:TPX><ns3:Speed>\(Double(i % 40) / 8)</ns3:Speed></ns3:TPX></Extensions>\n</Trackpoint>\n"
        }
        text += "</Track></Lap></Activity></Activities></TrainingCenterDatabase>\n"
        return Array(text.utf8)
    }

    private static func stamp(_ i: Int) -> String {
        Timestamp(nanosecondsSince1970: (1_600_000_000 + Int64(i)) * 1_000_000_000).rfc3339
    }

    private static func position(_ i: Int) -> (Double, Double) {
        let lat = 46.0 + Double((i * 7919) % 100_000) / 1_000_000
        let lon = 14.5 + Double((i * 104_729) % 100_000) / 1_000_000
        return (lat, lon)
    }
}
