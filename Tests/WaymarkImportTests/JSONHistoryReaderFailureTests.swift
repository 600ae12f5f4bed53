import Testing
import WaymarkCore
import WaymarkImport

/// How the JSON history reader refuses what it cannot read: where, with which code, and keeping
/// what came before.
@Suite struct JSONHistoryReaderFailureTests {
    typealias Read = JSONHistoryReaderTests

    static let item = #"{"latitudeE7": 473771234, "longitudeE7": 85412345, "timestamp": "2021-06-01T07:00:00Z"}"#

    @Test func aSyntaxErrorSaysLineAndColumn() {
        let (items, error, _) = Read.read("{\"locations\": [\n" + Self.item + ",\n  {\"latitudeE7\" 1}\n]}")
        #expect(items.count == 1)
        #expect(error?.code == .syntax)
        #expect(error?.position == .line(3, column: 17))
        #expect(error?.description == "t.json:3:17: expected ':' after a key, found '1'")
    }

    @Test(arguments: [
        (#"{"locations": [1]}"#, ImportError.Code.unknownFormat),
        (#"{"timelineObjects": [{"placeVisit": {"duration": {}}]}"#, .invalidValue),
        (#"{"semanticSegments": [{"startTime": "2024-01-01T00:00:00Z"} {}]}"#, .syntax),
        (#"{"semanticSegments": [{"visit": {}}]}"#, .invalidValue),
        (#"{"semanticSegments": [], "x": [1,]}"#, .syntax),
        (#"{"features": [{"geometry": {"type": "Point", "coordinates": [1]}}]}"#, .invalidValue),
        (#"{"locations": []} x"#, .syntax),
        (#"{"locations": [], }"#, .syntax),
        (#"{"rawSignals": [{"position": {"LatLng": "47.1°, 8.1°", "timestamp": "2024-01-01T00:00:00Z"}}, "#, .truncated),
        (#"{"rawSignals": [{"position": {"LatLng": "47.1° 8.1°"}}]}"#, .invalidValue),
        ("{\"timelineEdits\": [{\"deviceId\": \"a\u{01}\"}]}", .syntax),
        (#"{"timelineEdits": [{"deviceId": "\q"}]}"#, .syntax),
        (#"{"locations": [{"x": "# + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}]}", .syntax),
        (#"{"timelineObjects": [{"activitySegment": {"activities": [1]}}]}"#, .invalidValue),
        (#"{"locations": [{"latitudeE7": 1, "longitudeE7": 1, "timestampMs": "1"}, 5]}"#, .invalidValue),
        (#"{"semanticSegments": [{"startTime": "2024-01-01T00:00:00Z", "timelinePath": [{"time": "2024-01-01T00:00:00Z"}]}]}"#, .invalidValue),
    ])
    func malformedDocumentsAreRefusedWithTheirCode(text: String, code: ImportError.Code) {
        let (_, error, _) = Read.read(text)
        #expect(error?.code == code, "\(error?.description ?? "no error")")
    }

    @Test func aTruncatedFileKeepsItsCompleteItemsAndSaysWhereItEnds() {
        let text = "{\"locations\": [\n" + Self.item + ",\n" + Self.item + ",\n" + #"{"latitudeE7": 47377"#
        let (items, error, _) = Read.read(text)
        #expect(items.count == 2)
        #expect(error?.code == .truncated)
        #expect(error?.position == .line(4, column: 21))
    }

    @Test func aFileCutBetweenItemsIsTruncatedToo() {
        let (items, error, _) = Read.read("{\"locations\": [" + Self.item + ",")
        #expect(items.count == 1)
        #expect(error?.code == .truncated)
    }

    @Test(arguments: [
        ("", "the file is empty"), ("   \n", "the file is empty"), ("<gpx>", "'<'"), ("42", "'4'"),
        (#"{"name": "x", "bbox": [1, 2]}"#, "keys name, bbox"),
        (#"[{"lat": 1, "lon": 2}]"#, "keys lat, lon"),
        (#"{"locations": [{"lat": 1, "lon": 2}]}"#, "keys lat, lon"),
    ])
    func unknownJSONNamesWhatItSaw(text: String, seen: String) {
        let (items, error, _) = Read.read(text)
        #expect(items.isEmpty)
        #expect(error?.code == .unknownFormat)
        #expect(error?.message.contains(seen) == true, "\(error?.description ?? "no error")")
    }

    @Test func unknownJSONFailsWithinItsFirstMiB() throws {
        // 64 MiB of an unknown array, produced on demand: the reader must stop near 1 MiB.
        let head = Array(#"{"samples": ["#.utf8)
        let element = Array(#"{"v": 12345678, "w": "abcdefgh"},"#.utf8)
        var produced = 0
        let total = 64 << 20
        let input = ImportInput(name: "big.json", size: nil) { buffer in
            guard produced < total else { return 0 }
            var count = 0
            while count < buffer.count && produced < total {
                let index = produced < head.count ? produced : (produced - head.count) % element.count
                buffer[count] = produced < head.count ? head[index] : element[index]
                count += 1
                produced += 1
            }
            return count
        }
        let (_, error, _) = Read.read(input)
        #expect(error?.code == .unknownFormat)
        #expect(error?.message.contains("keys samples") == true)
        #expect(produced < 3 << 20)
    }

    @Test func badValuesNameTheFieldAndWhereItIs() {
        let cases: [(String, String, ImportError.Position)] = [
            (#"{"latitudeE7": 950000000, "longitudeE7": 1, "timestampMs": "1"}"#, "latitudeE7: latitude 95.0", .line(1, column: 31)),
            (#"{"latitudeE7": 1, "longitudeE7": 1, "timestamp": "yesterday"}"#, "timestamp: \"yesterday\" is not a time", .line(1, column: 65)),
            (#"{"latitudeE7": 1, "longitudeE7": 1, "timestampMs": "1", "accuracy": "high"}"#, "accuracy: expected a number, found a string", .line(1, column: 84)),
            (#"{"latitudeE7": 1, "longitudeE7": 1}"#, "timestamp: a location without a time", .line(1, column: 16)),
            (#"{"latitudeE7": "47", "longitudeE7": 1}"#, "latitudeE7: expected a number, found a string", .line(1, column: 31)),
        ]
        for (item, message, position) in cases {
            let (items, error, _) = Read.read(#"{"locations": ["# + item + "]}")
            #expect(items.isEmpty)
            #expect(error?.code == .invalidValue)
            #expect(error?.message.hasPrefix(message) == true, "\(error?.description ?? "no error")")
            #expect(error?.position == position, "\(item): \(error?.description ?? "no error")")
        }
    }

    @Test func geoJSONWithOnlyUntimedLinesIsRefusedSayingWhatToDo() {
        let (items, error, reader) = Read.read(
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}}]}"#
        )
        #expect(items.isEmpty)
        #expect(reader.untimedLines == 1)
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("without times") == true)
        #expect(error?.message.contains("coordTimes") == true)
    }

    @Test func aLineWithTheWrongNumberOfTimesIsAnInvalidValue() {
        let (_, error, _) = Read.read(
            #"{"features": [{"properties": {"coordTimes": ["2023-05-01T10:05:00Z"]}, "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}}]}"#
        )
        #expect(error?.code == .invalidValue)
        #expect(error?.message == "coordTimes: 1 times for 2 positions")
    }

    @Test func anEmptyHistoryReadsAsNothing() {
        for text in [#"{"locations": []}"#, #"{"semanticSegments": [], "rawSignals": []}"#, "[]"] {
            let (items, error, _) = Read.read(text)
            #expect(items.isEmpty)
            #expect(error == nil, "\(text): \(error?.description ?? "")")
        }
    }

    /// Real region files (polygons, no times) given to import: read whole, refused as history.
    @Test(arguments: [("ne_50m_admin_0_countries.json", 241), ("manhattan.geojson", 37)])
    func regionFilesAreNotHistory(file: String, features: Int) throws {
        let path = SampleReading.url("").deletingLastPathComponent().path + "/../../../shared/data/geojson/" + file
        guard let input = try? ImportInput(path: path, name: file) else { return }
        let (items, error, reader) = Read.read(input)
        #expect(items.isEmpty)
        #expect(reader.shape == .geoJSON)
        #expect(reader.skipped == features)
        #expect(error?.code == .unsupported)
        #expect(error?.message.hasPrefix("no GeoJSON feature has a time") == true)
    }
}
