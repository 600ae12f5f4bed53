import Testing
import WaymarkCore
import WaymarkPlaces

/// Malformed place data: a located `PlaceDataError`, never a trap.
@Suite struct PlaceDataCorruptionTests {
    func error(_ bytes: [UInt8]) -> PlaceDataError? {
        do {
            _ = try PlaceIndex(bytes: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func badMagic() throws {
        var bytes = try PlaceIndexSampleTests.sampleBytes()
        bytes[0] = UInt8(ascii: "X")
        let failure = try #require(error(bytes))
        #expect(failure.offset == 0)
        #expect(failure.message.contains("bad magic"))
        #expect(error([])?.message.contains("truncated") == true)
    }

    @Test func unsupportedVersion() throws {
        var bytes = try PlaceIndexSampleTests.sampleBytes()
        bytes[8] = 2
        let failure = try #require(error(bytes))
        #expect(failure.offset == 8)
        #expect(failure.description == "unsupported place-data format version 2 (this Waymark reads version 1) (at byte 8)")
    }

    @Test func everyTruncationIsLocated() throws {
        let bytes = try PlaceIndexSampleTests.sampleBytes()
        for length in 0..<bytes.count {
            let failure = try #require(error(Array(bytes[..<length])), "a file cut at \(length) bytes was accepted")
            let offset = try #require(failure.offset, "\(failure)")
            #expect(offset <= length, "\(failure) for \(length) bytes")
        }
        let padded = try #require(error(bytes + [0]))
        #expect(padded.offset == bytes.count)
    }

    /// Seeded random byte changes: each either parses (and answers lookups) or throws with an offset.
    @Test func corruptBytesNeverTrap() throws {
        let bytes = try PlaceIndexSampleTests.sampleBytes()
        var random = SplitMix64(seed: 7)
        var rejected = 0
        for _ in 0..<3_000 {
            var corrupt = bytes
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                corrupt[Int.random(in: 12..<corrupt.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            do {
                let index = try PlaceIndex(bytes: corrupt)
                for (latitude, longitude) in [(0.5, 0.5), (0.8, 2.5), (10.5, 180.0), (-45.0, 30.0)] {
                    _ = index.lookup(Coordinate(latitude: latitude, longitude: longitude))
                }
            } catch {
                #expect(error.offset != nil, "\(error)")
                rejected += 1
            }
        }
        #expect(rejected > 500)
    }
}
