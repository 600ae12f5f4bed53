import Foundation
import Testing
import WaymarkCore
import WaymarkImport
import WaymarkTestSupport

/// The fuzz seeds (Fuzz/Seeds/import: a Takeout-like zip, a ZIP64 zip, a multi-member gzip)
/// with bytes flipped and ends cut, a few thousand times from a fixed seed: listing and reading
/// each must end in entries or an `ImportError`, never a trap (an overflow, an index out of range).
@Suite struct ImportSourcesMutationTests {
    @Test(arguments: ["takeout.zip", "zip64.zip", "multi.nmea.gz"])
    func damagedArchivesEndInAnErrorNeverATrap(seed name: String) throws {
        let seed = Array(try Data(contentsOf: ProjectPaths.repositoryRoot.appendingPathComponent("Fuzz/Seeds/import/\(name)")))
        let folder = try TemporaryDirectory(prefix: "waymark-import-mutations")
        var random = SplitMix64(seed: UInt64(seed.count))
        var outcomes = (listed: 0, refused: 0, read: 0, failed: 0)
        for round in 0..<700 {
            var bytes = seed
            for _ in 0..<(1 + Int(random.next() % 4)) {
                bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            if round % 3 == 0 { bytes.removeLast(Int(random.next() % UInt64(bytes.count))) }
            let path = try folder.write("mutated-\(round)", bytes: bytes)
            do throws(ImportError) {
                let listing = try ImportSources.entries(for: [path])
                outcomes.listed += 1
                for entry in listing.entries {
                    if ArchiveFixtures.readError(entry) == nil { outcomes.read += 1 } else { outcomes.failed += 1 }
                }
            } catch {
                outcomes.refused += 1
                #expect(!error.message.isEmpty)
            }
        }
        // Both ways out are taken: damage is found while listing and while reading.
        #expect(outcomes.listed > 0 && outcomes.refused > 0 && outcomes.failed > 0, "\(outcomes)")
    }
}
