import Testing
import WaymarkCore
import WaymarkImport

/// A large JSON history is read an item at a time: all of it, in memory that does not grow with it.
@Suite struct JSONHistoryReaderStreamingTests {
    /// An input of `head`, `count` copies of `item` joined by commas, and `tail`, made as it is
    /// read so the test holds none of it; `largestBuffer` is the most room the reader offered.
    static func repeated(head: String, item: String, count: Int, tail: String, largestBuffer: UnsafeMutablePointer<Int>) -> ImportInput {
        let parts = [Array(head.utf8), Array(("," + item).utf8), Array(tail.utf8)]
        let first = Array(item.utf8)
        var part = 0
        var repeats = 0
        var position = 0
        var current = parts[0]
        return ImportInput(name: "generated.json", size: nil) { buffer in
            largestBuffer.pointee = max(largestBuffer.pointee, buffer.count)
            var written = 0
            while written < buffer.count {
                if position == current.count {
                    if part == 2 { break }
                    position = 0
                    if part == 0 {
                        part = 1
                        current = first
                    } else if part == 1 {
                        repeats += 1
                        if repeats == count {
                            part = 2
                            current = parts[2]
                        } else {
                            current = parts[1]
                        }
                    }
                }
                let n = min(buffer.count - written, current.count - position)
                current.withUnsafeBytes { source in
                    (buffer.baseAddress! + written).copyMemory(from: source.baseAddress! + position, byteCount: n)
                }
                written += n
                position += n
            }
            return written
        }
    }

    @Test func fiftyMegabytesOfRecordsAreReadWholeInBoundedMemory() throws {
        let item = """
            {
                "latitudeE7" : 473771234,
                "longitudeE7" : 85412345,
                "accuracy" : 14,
                "activity" : [ { "activity" : [ { "type" : "STILL", "confidence" : 100 } ], "timestamp" : "2021-06-01T07:00:01.500Z" } ],
                "source" : "WIFI",
                "timestamp" : "2021-06-01T07:00:00.123Z"
              }
            """
        let count = 50_000_000 / (item.utf8.count + 1)
        let largestBuffer = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        defer { largestBuffer.deallocate() }
        largestBuffer.pointee = 0
        let input = Self.repeated(head: "{\n  \"locations\" : [ ", item: item, count: count, tail: " ]\n}\n", largestBuffer: largestBuffer)
        var reader = JSONHistoryReader(input: input)
        var fixes = 0
        while let next = try reader.next() {
            guard case .fix(let fix) = next else { continue }
            fixes += 1
            if fixes == count { #expect(fix.coordinate == Coordinate(latitude: 47.3771234, longitude: 8.5412345)) }
        }
        #expect(fixes == count)
        #expect(input.offset > 50_000_000 - item.utf8.count)
        // The input's buffer never grew past its first size: the reader held an item, not the file.
        #expect(largestBuffer.pointee <= ImportInput.chunkSize)
    }

    /// The bytes handed over `size` at a time, so every token meets a buffer's end somewhere.
    static func trickle(_ bytes: [UInt8], size: Int) -> ImportInput {
        var position = 0
        return ImportInput(name: "trickle.json", size: bytes.count) { buffer in
            let n = min(size, buffer.count, bytes.count - position)
            for k in 0..<n { buffer[k] = bytes[position + k] }
            position += n
            return n
        }
    }

    @Test(arguments: [
        "google/Records.json", "google/Semantic-2021_JUNE.json", "google/Timeline.json", "google/location-history.json",
        "google/Timeline Edits.json", "geojson/track.geojson", "geojson/overland.json",
    ])
    func itemsCutAnywhereByTheInputReadTheSame(sample: String) throws {
        let bytes = try SampleReading.bytes(sample)
        let whole = JSONHistoryReaderTests.read(ImportInput(bytes: bytes, name: sample))
        for size in [1, 3, 7, 64] {
            let cut = JSONHistoryReaderTests.read(Self.trickle(bytes, size: size))
            #expect(cut.error == nil)
            #expect(cut.items == whole.items, "\(size)-byte reads")
            #expect(cut.reader.skipped == whole.reader.skipped)
        }
    }

    @Test func aLineLongerThanTheBufferIsOneItem() throws {
        let points = 30_000
        var coordinates: [String] = []
        var times: [String] = []
        for k in 0..<points {
            coordinates.append("[\(13 + Double(k) / 100_000), 52.5, \(k % 100)]")
            times.append("\"\(SampleReading.time(Int64(k)).rfc3339)\"")
        }
        let text =
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"coordTimes": ["#
            + times.joined(separator: ",") + #"]}, "geometry": {"type": "LineString", "coordinates": ["#
            + coordinates.joined(separator: ",") + "]}}]}"
        #expect(text.utf8.count > 2 * ImportInput.chunkSize)
        let (items, error, _) = JSONHistoryReaderTests.read(text)
        #expect(error == nil)
        #expect(items.count == points)
        #expect(items.last == .fix(Fix(time: SampleReading.time(Int64(points - 1)), coordinate: Coordinate(latitude: 52.5, longitude: 13.29999), altitude: 99)))
    }
}
