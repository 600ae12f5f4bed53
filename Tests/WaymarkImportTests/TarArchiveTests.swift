import Foundation
import Testing
import WaymarkImport
import WaymarkTestSupport

/// Tar archives (`.tar`, and Takeout's `.tgz`) written by Python's tarfile in each layout.
@Suite struct TarArchiveTests {
    static func archive(_ name: String, format: String, longName: Bool = false, in directory: TemporaryDirectory) async throws -> String {
        let path = directory.path(name)
        let made = try await runPython(
            #"""
            import io, sys, tarfile
            path, layout, long = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
            formats = {"gnu": tarfile.GNU_FORMAT, "ustar": tarfile.USTAR_FORMAT, "pax": tarfile.PAX_FORMAT}
            folder = "Takeout/" + ("Location History (Timeline)/" * 3 if long else "Location History/")
            members = [
                (folder + "track.gpx", b'<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>'
                 b'<trkpt lat="47.1" lon="8.1"><time>2024-01-01T00:00:00Z</time></trkpt>'
                 b'<trkpt lat="47.2" lon="8.2"><time>2024-01-01T00:01:00Z</time></trkpt></trkseg></trk></gpx>'),
                ("Takeout/index.html", b"<html></html>"),
            ]
            mode = "w:gz" if path.endswith(".tgz") else "w"
            with tarfile.open(path, mode, format=formats[layout]) as t:
                t.addfile(tarfile.TarInfo("Takeout/"), None) if False else None
                for name, data in members:
                    info = tarfile.TarInfo(name)
                    info.size = len(data)
                    t.addfile(info, io.BytesIO(data))
            """#, [path, format, longName ? "1" : "0"])
        try #require(made.status == 0, "\(made.stderr)")
        return path
    }

    static func fixes(_ entry: ImportEntry) throws -> Int {
        var opened = try entry.openReader()
        var count = 0
        while let item = try opened.reader.next() { if case .fix = item { count += 1 } }
        return count
    }

    @Test(arguments: ["gnu", "ustar", "pax"])
    func aTarArchivesMembersAreEntries(_ layout: String) async throws {
        let directory = try TemporaryDirectory()
        let path = try await Self.archive("takeout.tar", format: layout, longName: true, in: directory)
        let listing = try ImportSources.entries(for: [path])
        try #require(listing.entries.count == 1, "\(listing)")
        let entry = listing.entries[0]
        #expect(entry.format == .gpx)
        #expect(entry.name == path + ":Takeout/" + String(repeating: "Location History (Timeline)/", count: 3) + "track.gpx")
        #expect(entry.origin == path)
        #expect(try Self.fixes(entry) == 2)
        #expect(listing.skipped.map(\.name) == [path + ":Takeout/index.html"])
    }

    @Test func aTgzIsInflatedOnceAndItsMembersRead() async throws {
        let directory = try TemporaryDirectory()
        let path = try await Self.archive("takeout.tgz", format: "gnu", in: directory)
        let listing = try ImportSources.entries(for: [path])
        try #require(listing.entries.count == 1, "\(listing)")
        #expect(listing.entries[0].origin == path)
        #expect(try Self.fixes(listing.entries[0]) == 2)
    }

    @Test func aDamagedHeaderIsAnArchiveErrorAtItsOffset() async throws {
        let directory = try TemporaryDirectory()
        let path = try await Self.archive("takeout.tar", format: "gnu", in: directory)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // The second member's header: after the first header and its padded 1 block of data.
        let second = 512 + (bytes.count > 1536 ? 512 : 0)
        bytes[second + 10] ^= 0x55
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect {
            try ImportSources.entries(for: [path])
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.code == .archive && error.position == .byteOffset(second) && error.message.contains("checksum")
        }
    }
}
