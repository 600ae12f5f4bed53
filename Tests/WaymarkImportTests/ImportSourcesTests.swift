import Foundation
import Testing
import WaymarkImport
import WaymarkTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Paths to entries: zip archives and gzip files made by Python, folders made here; every entry's
/// bytes compared with what was put in.
@Suite struct ImportSourcesTests {
    @Test func aTakeoutLikeZipListsItsReadableMembersAndSkipsTheRest() async throws {
        let fixtures = try await ArchiveFixtures("mixed")
        let zip = fixtures.path("mixed.zip")
        let listing = try ImportSources.entries(for: [zip])
        let records = try fixtures.bytes("records.json.orig")
        #expect(listing.entries.map(\.name) == ["Takeout/track.gpx", "Takeout/Location History/Records.json", "Takeout/day.json.gz"].map { "\(zip):\($0)" })
        #expect(listing.entries.map(\.format) == [.gpx, .json, .json])
        #expect(listing.entries.allSatisfy { !$0.wasNamed })
        #expect(try ArchiveFixtures.readAll(listing.entries[0]) == fixtures.bytes("track.gpx.orig"))
        #expect(try ArchiveFixtures.readAll(listing.entries[1]) == records)
        #expect(try ArchiveFixtures.readAll(listing.entries[2]) == records, "a gzip inside the zip is inflated too")
        #expect(listing.entries[1].size == records.count)
        #expect(listing.entries[1].storedSize < records.count / 3)
        #expect(listing.entries[2].size == nil)
        // Folders, hidden members and __MACOSX pass silently; the rest is listed with a reason.
        #expect(listing.skipped.map(\.name) == ["archive_browser.html", "photo.png", "empty.txt", "nested.zip"].map { "\(zip):Takeout/\($0)" })
        #expect(listing.skipped.map(\.reason).prefix(3) == ["an HTML document", "a PNG image", "an empty file"])
        #expect(listing.skipped[3].reason.contains("a zip inside an archive is not opened"))
    }

    @Test func zip64RecordsAndExtraFieldsAreRead() async throws {
        let fixtures = try await ArchiveFixtures("zip64")
        let listing = try ImportSources.entries(for: [fixtures.path("zip64.zip")])
        #expect(listing.entries.map { $0.name.split(separator: ":").last! } == ["a.gpx", "records.json", "stored.json"])
        let records = try fixtures.bytes("records.json.orig")
        #expect(try ArchiveFixtures.readAll(listing.entries[1]) == records)
        #expect(try ArchiveFixtures.readAll(listing.entries[2]) == records)
        #expect(listing.entries[2].size == records.count)
    }

    @Test func aMemberWithADataDescriptorIsRead() async throws {
        let fixtures = try await ArchiveFixtures("descriptor")
        let listing = try ImportSources.entries(for: [fixtures.path("descriptor.zip")])
        #expect(listing.entries.count == 1)
        #expect(try ArchiveFixtures.readAll(#require(listing.entries.first)) == fixtures.bytes("records.json.orig"))
    }

    @Test(arguments: [("bzip2.zip", "method 12 (bzip2)"), ("encrypted.zip", "encrypted")])
    func encryptedAndOtherMethodsAreRefusedNamingTheMember(file: String, reason: String) async throws {
        let fixtures = try await ArchiveFixtures("refused")
        let zip = fixtures.path(file)
        let error = #expect(throws: ImportError.self) { try ImportSources.entries(for: [zip]) }
        #expect(error?.code == .archive)
        #expect(error?.file == "\(zip):track.gpx")
        #expect(error?.message.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func aDamagedDeflateStreamIsAnErrorAtTheEntryAndOffsetItStops() async throws {
        let fixtures = try await ArchiveFixtures("damaged")
        let sizes = try String(decoding: fixtures.bytes("sizes"), as: UTF8.self).split(separator: " ").map { Int($0)! }
        let zip = fixtures.path("damaged.zip")
        let entry = try #require(ImportSources.entries(for: [zip]).entries.first)
        let error = try #require(ArchiveFixtures.readError(entry))
        #expect(error.code == .archive)
        #expect(error.file == "\(zip):damaged.json")
        #expect(error.position == .byteOffset(sizes[0]), "the inflated bytes before the damage were read")
        // zlib reads the bad block header's byte, and may read a few more before it stops.
        let reported = error.message.split(separator: "near compressed byte ").last.flatMap { Int($0.prefix(while: \.isNumber)) }
        #expect(reported.map { (sizes[1]...sizes[1] + 8).contains($0) } == true, "\(error)")
        #expect(error.message.contains("invalid block type"))
    }

    @Test func aCRCMismatchIsAnErrorAtTheEntrysEnd() async throws {
        let fixtures = try await ArchiveFixtures("damaged")
        let zip = fixtures.path("crc.zip")
        let entry = try #require(ImportSources.entries(for: [zip]).entries.first, "listed: the damage is past its first bytes")
        let error = try #require(ArchiveFixtures.readError(entry))
        #expect(error.code == .archive)
        #expect(error.file == "\(zip):track.gpx")
        #expect(error.position == .byteOffset(try fixtures.bytes("track.gpx.orig").count))
        #expect(error.message.contains("CRC-32 mismatch"), "\(error)")
    }

    @Test func aZipCutShortOrWithADamagedDirectoryIsRefused() async throws {
        let fixtures = try await ArchiveFixtures("mixed")
        let whole = try fixtures.bytes("mixed.zip")
        let cut = try fixtures.folder.write("cut.zip", bytes: Array(whole.prefix(whole.count / 2)))
        let cutError = #expect(throws: ImportError.self) { try ImportSources.entries(for: [cut]) }
        #expect(cutError?.code == .archive)
        #expect(cutError?.message.contains("not a complete zip archive") == true)

        var damaged = whole
        let directory = try #require(damaged.indices.first { damaged[$0...].starts(with: [0x50, 0x4B, 0x01, 0x02]) })
        damaged[directory + 2] = 9
        let path = try fixtures.folder.write("damaged.zip", bytes: damaged)
        let error = #expect(throws: ImportError.self) { try ImportSources.entries(for: [path]) }
        #expect(error?.code == .archive)
        #expect(error?.position == .byteOffset(directory))
        #expect(error?.message.contains("central directory entry 1 has no header signature") == true)
    }

    @Test func localFileOfADamagedEntryIsTheError() async throws {
        let fixtures = try await ArchiveFixtures("gzip")
        let entry = try #require(ImportSources.entries(for: [fixtures.path("cut.gz")]).entries.first)
        let error = #expect(throws: ImportError.self) { try entry.localFile() }
        #expect(error?.code == .truncated)
        #expect(error?.file == fixtures.path("cut.gz"))
    }

    @Test func everyMemberOfAMultiMemberGzipIsInflated() async throws {
        let fixtures = try await ArchiveFixtures("gzip")
        let listing = try ImportSources.entries(for: [fixtures.path("multi.gz"), fixtures.path("single.gz"), fixtures.path("padded.gz")])
        #expect(listing.entries.map(\.name) == [fixtures.path("multi.gz"), fixtures.path("single.gz"), fixtures.path("padded.gz")])
        #expect(listing.entries.allSatisfy { $0.format == .json && $0.wasNamed })
        #expect(try ArchiveFixtures.readAll(listing.entries[0]) == fixtures.bytes("multi.json.orig"))
        #expect(try ArchiveFixtures.readAll(listing.entries[1]) == fixtures.bytes("single.json.orig"))
        #expect(try ArchiveFixtures.readAll(listing.entries[2]) == fixtures.bytes("small.json.orig"), "zero padding after the last member is ignored")
        #expect(listing.entries[0].size == nil, "the last member's trailer cannot give a multi-member file's size")
        #expect(listing.entries[1].size == (try fixtures.bytes("single.json.orig").count))
    }

    @Test(arguments: [
        ("garbage.gz", ImportError.Code.archive, "starts no new one"), ("cut.gz", .truncated, "ends early"),
        ("badcrc.gz", .archive, "incorrect data check"),
    ])
    func aDamagedGzipIsAnErrorNamingTheFileAndOffset(file: String, code: ImportError.Code, reason: String) async throws {
        let fixtures = try await ArchiveFixtures("gzip")
        let entry = try #require(ImportSources.entries(for: [fixtures.path(file)]).entries.first)
        let error = try #require(ArchiveFixtures.readError(entry))
        #expect(error.code == code)
        #expect(error.file == fixtures.path(file))
        #expect(error.message.contains(reason), "\(error)")
        guard case .byteOffset(let offset) = error.position else {
            Issue.record("no offset: \(error)")
            return
        }
        #expect(offset > 0)
    }

    @Test func aFolderIsWalkedInByteOrderSkippingHiddenFilesAndLinks() async throws {
        let fixtures = try await ArchiveFixtures("mixed")
        let folder = try TemporaryDirectory(prefix: "waymark-import-walk")
        let gpx = String(decoding: try fixtures.bytes("track.gpx.orig"), as: UTF8.self)
        try FileManager.default.createDirectory(atPath: folder.path("a"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path(".hidden"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path("sub"), withIntermediateDirectories: true)
        try folder.write("b.gpx", gpx)
        try folder.write("A.csv", "Latitude;Longitude;Time\n47.1;8.1;2024-01-01T00:00:00Z\n")
        try folder.write("a/inner.nmea", "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\n")
        try folder.write(".hidden/x.gpx", gpx)
        try folder.write(".h.gpx", gpx)
        try folder.write("notes.txt", "shopping list\n")
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.gpx"), withDestinationPath: folder.path("b.gpx"))
        try FileManager.default.copyItem(atPath: fixtures.path("mixed.zip"), toPath: folder.path("sub/takeout.zip"))
        let listing = try ImportSources.entries(for: [folder.url.path])
        let names = listing.entries.map { String($0.name.dropFirst(folder.url.path.count + 1)) }
        #expect(names.prefix(4) == ["A.csv", "a/inner.nmea", "b.gpx", "sub/takeout.zip:Takeout/track.gpx"])
        #expect(listing.entries.prefix(3).map(\.format) == [.csv, .nmea, .gpx])
        #expect(listing.entries.count == 6)
        let skipped = listing.skipped.map { String($0.name.dropFirst(folder.url.path.count + 1)) }
        #expect(skipped.prefix(2) == ["link.gpx", "notes.txt"])
        #expect(listing.skipped[0].reason.contains("symbolic link"))
        #expect(listing.skipped[1].reason == "text beginning \"shopping list\"")
        // A link the user names is followed.
        #expect(try ImportSources.entries(for: [folder.path("link.gpx")]).entries.map(\.format) == [.gpx])
    }

    @Test func aNamedFileOfNoKnownFormatIsRefusedFastWhateverItsSize() throws {
        let folder = try TemporaryDirectory(prefix: "waymark-import-unknown")
        let png = try folder.write("huge.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(truncate(png, 8 << 30) == 0)  // sparse: 8 GiB
        let started = ContinuousClock.now
        let error = #expect(throws: ImportError.self) { try ImportSources.entries(for: [png]) }
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(error?.code == .unknownFormat)
        #expect(error?.file == png)
        #expect(error?.message.hasSuffix("it looks like a PNG image") == true, "\(String(describing: error))")

        let page = try folder.write("page.json", "<!DOCTYPE html>\n<html lang=\"en\"><body></body></html>")
        let empty = try folder.write("empty.gpx", "")
        let pageError = #expect(throws: ImportError.self) { try ImportSources.entries(for: [page]) }
        #expect(pageError?.message.hasSuffix("it looks like an HTML document") == true)
        let emptyError = #expect(throws: ImportError.self) { try ImportSources.entries(for: [empty]) }
        #expect(emptyError?.message.hasSuffix("it looks like an empty file") == true)
        let missing = #expect(throws: ImportError.self) { try ImportSources.entries(for: [folder.path("missing.gpx")]) }
        #expect(missing?.code == .io)
        #expect(try ImportSources.entries(for: [folder.url.path + "/"]).entries.isEmpty == true)
    }

    @Test func aNamedGzipOfNoKnownFormatSaysWhatItHolds() async throws {
        let fixtures = try await ArchiveFixtures("gzip")
        let error = #expect(throws: ImportError.self) { try ImportSources.entries(for: [fixtures.path("page.gz")]) }
        #expect(error?.code == .unknownFormat)
        #expect(error?.message.hasSuffix("it looks like gzip-compressed an HTML document") == true, "\(String(describing: error))")
    }

    @Test func aFormatGivenByTheCallerReplacesDetection() async throws {
        let folder = try TemporaryDirectory(prefix: "waymark-import-forced")
        let csv = try folder.write("points.txt", "Y,X,when\n47.1,8.1,2024-01-01T00:00:00Z\n")
        #expect(throws: ImportError.self) { try ImportSources.entries(for: [csv]) }
        #expect(try ImportSources.entries(for: [csv], format: .csv).entries.map(\.format) == [.csv])
    }

    @Test func localFileIsTheFileItselfOrAnUnlinkedInflatedCopy() async throws {
        let fixtures = try await ArchiveFixtures("mixed")
        let listing = try ImportSources.entries(for: [fixtures.path("mixed.zip"), fixtures.path("track.gpx.orig")])
        let member = try listing.entries[1].localFile()
        #expect(member.path.hasPrefix("/proc/self/fd/"))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: member.path))) == (try fixtures.bytes("records.json.orig")))
        let plain = try #require(listing.entries.last).localFile()
        #expect(plain.path == fixtures.path("track.gpx.orig"))
    }

    /// A 200 MB member (1 MiB of varied JSON lines repeated, deflated at level 1 to about 58 MB)
    /// inflated with its CRC-32 checked, in bounded memory. `WAYMARK_LARGE_ENTRY_MB` sets the size.
    @Test func aLargeMemberIsInflatedInBoundedMemory() async throws {
        let megabytes = ProcessInfo.processInfo.environment["WAYMARK_LARGE_ENTRY_MB"].flatMap(Int.init) ?? 200
        let fixtures = try await ArchiveFixtures("large", [String(megabytes)])
        let expected = try #require(Int(String(decoding: fixtures.bytes("large.size"), as: UTF8.self)))
        let entry = try #require(ImportSources.entries(for: [fixtures.path("large.zip")]).entries.first)
        #expect(entry.size == expected)
        let before = residentBytes()
        var peak = before
        let started = ContinuousClock.now
        let input = try entry.open()
        var total = 0
        while try input.require(ImportInput.chunkSize) > 0 {
            total += input.unread.count
            input.advance(by: input.unread.count)
            if total % (16 << 20) < ImportInput.chunkSize { peak = max(peak, residentBytes()) }
        }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        #expect(total == expected)
        #expect(peak - before < 64 << 20, "resident memory grew by \((peak - before) >> 20) MiB")
        print("inflated \(total >> 20) MiB in \(seconds) s: \(Int(Double(total) / 1e6 / seconds)) MB/s")
    }

    /// The process's resident set (VmRSS), in bytes.
    private func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Int(line.split(separator: " ")[1]) ?? 0) * 1024
    }
}
