import Foundation
import WaymarkImport
import WaymarkTestSupport

/// Zip and gzip files made by Python's `zipfile` and `gzip` modules (an implementation
/// independent of Waymark's) in a temporary folder, with the bytes they hold written beside
/// them as `*.orig` for exact comparison. `kind` picks the set (see the script's branches).
final class ArchiveFixtures: Sendable {
    let folder: TemporaryDirectory

    init(_ kind: String, _ arguments: [String] = []) async throws {
        folder = try TemporaryDirectory(prefix: "waymark-import-archives")
        let result = try await runPython(Self.script, [folder.url.path, kind] + arguments)
        guard result.status == 0 else {
            throw ImportError(.io, "the fixture script failed: \(result.stderr)", file: kind)
        }
    }

    func path(_ name: String) -> String { folder.path(name) }

    func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// Every byte of an entry, read through `open()`.
    static func readAll(_ entry: ImportEntry) throws(ImportError) -> [UInt8] {
        let input = try entry.open()
        var bytes: [UInt8] = []
        while try input.require(ImportInput.chunkSize) > 0 {
            bytes.append(contentsOf: input.unread)
            input.advance(by: input.unread.count)
        }
        return bytes
    }

    /// The error reading an entry to its end throws, or nil.
    static func readError(_ entry: ImportEntry) -> ImportError? {
        do throws(ImportError) {
            _ = try readAll(entry)
            return nil
        } catch { return error }
    }

    static let script = #"""
import gzip, io, os, struct, sys, zipfile, zlib

out = sys.argv[1]
what = sys.argv[2]

def path(name):
    return os.path.join(out, name)

def write(name, data):
    with open(path(name), "wb") as f:
        f.write(data)

GPX = b'<?xml version="1.0"?>\n<gpx version="1.1" creator="t"><trk><trkseg><trkpt lat="47.1" lon="8.1"><time>2024-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>\n'

def json_text(n):
    lines = [b'{"locations": [']
    for i in range(n):
        lines.append(b'{"latitudeE7": %d, "longitudeE7": %d, "timestamp": "2024-01-01T00:%02d:%02dZ"},' % (471000000 + i * 37, 81000000 + (i * 7919) % 100000, (i // 60) % 60, i % 60))
    lines.append(b'{}]}\n')
    return b"\n".join(lines)

def central_header(data, index=0):
    at = -1
    for _ in range(index + 1):
        at = data.index(b"PK\x01\x02", at + 1)
    return at

if what == "mixed":
    records = json_text(8000)
    write("records.json.orig", records)
    write("track.gpx.orig", GPX)
    with zipfile.ZipFile(path("mixed.zip"), "w") as z:
        z.writestr("Takeout/", b"")
        z.writestr("Takeout/track.gpx", GPX, compress_type=zipfile.ZIP_STORED)
        z.writestr("Takeout/Location History/Records.json", records, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("Takeout/archive_browser.html", b"<!DOCTYPE html><html><body>Takeout</body></html>", compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("Takeout/photo.png", b"\x89PNG\r\n\x1a\n" + bytes(200))
        z.writestr("Takeout/empty.txt", b"")
        z.writestr("Takeout/.hidden.gpx", GPX)
        z.writestr("__MACOSX/Takeout/._track.gpx", b"\x00\x05\x16\x07")
        z.writestr("Takeout/nested.zip", b"PK\x05\x06" + bytes(18))
        z.writestr("Takeout/day.json.gz", gzip.compress(records), compress_type=zipfile.ZIP_STORED)
        z.comment = b"a comment that the end record search must step over " * 100

elif what == "zip64":
    zipfile.ZIP64_LIMIT = 1 << 10
    zipfile.ZIP_FILECOUNT_LIMIT = 2
    records = json_text(500)
    write("records.json.orig", records)
    with zipfile.ZipFile(path("zip64.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("a.gpx", GPX)
        with z.open("records.json", "w", force_zip64=True) as f:
            f.write(records)
        z.writestr("stored.json", records, compress_type=zipfile.ZIP_STORED)
    data = open(path("zip64.zip"), "rb").read()
    assert b"PK\x06\x06" in data and b"PK\x06\x07" in data, "no ZIP64 end record"

elif what == "descriptor":
    records = json_text(300)
    write("records.json.orig", records)
    class Unseekable(io.RawIOBase):
        def __init__(self, f): self.f = f
        def writable(self): return True
        def write(self, b): return self.f.write(b)
    with open(path("descriptor.zip"), "wb") as raw:
        with zipfile.ZipFile(Unseekable(raw), "w", zipfile.ZIP_DEFLATED) as z:
            with z.open("records.json", "w") as f:
                f.write(records)
    data = open(path("descriptor.zip"), "rb").read()
    flags = struct.unpack_from("<H", data, 6)[0]
    assert flags & 8, "no data descriptor"

elif what == "refused":
    with zipfile.ZipFile(path("bzip2.zip"), "w") as z:
        z.writestr("track.gpx", GPX, compress_type=zipfile.ZIP_BZIP2)
    with zipfile.ZipFile(path("encrypted.zip"), "w") as z:
        z.writestr("track.gpx", GPX, compress_type=zipfile.ZIP_DEFLATED)
    data = bytearray(open(path("encrypted.zip"), "rb").read())
    for at in (6, central_header(data) + 8):
        struct.pack_into("<H", data, at, struct.unpack_from("<H", data, at)[0] | 1)
    write("encrypted.zip", bytes(data))

elif what == "damaged":
    text = json_text(2000)
    more = b"more text that the damaged block would have held\n" * 100
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    part = c.compress(text) + c.flush(zlib.Z_FULL_FLUSH)
    stream = part + b"\x07" + bytes(64)
    with zipfile.ZipFile(path("damaged.zip"), "w") as z:
        z.writestr("damaged.json", stream, compress_type=zipfile.ZIP_STORED)
    data = bytearray(open(path("damaged.zip"), "rb").read())
    crc = zlib.crc32(text + more)
    for method_at, crc_at, size_at in ((8, 14, 22), (central_header(data) + 10, central_header(data) + 16, central_header(data) + 24)):
        struct.pack_into("<H", data, method_at, 8)
        struct.pack_into("<I", data, crc_at, crc)
        struct.pack_into("<I", data, size_at, len(text + more))
    write("damaged.zip", bytes(data))
    write("sizes", b"%d %d" % (len(text), len(part)))
    # A stored member with one byte changed after the directory recorded its CRC-32.
    write("track.gpx.orig", GPX)
    with zipfile.ZipFile(path("crc.zip"), "w") as z:
        z.writestr("track.gpx", GPX, compress_type=zipfile.ZIP_STORED)
    data = bytearray(open(path("crc.zip"), "rb").read())
    data[30 + len("track.gpx") + 60] ^= 0x20
    write("crc.zip", bytes(data))

elif what == "gzip":
    a = json_text(3000)
    b = json_text(10)
    write("multi.json.orig", a + b)
    write("single.json.orig", a)
    write("small.json.orig", b)
    write("multi.gz", gzip.compress(a) + gzip.compress(b))
    write("single.gz", gzip.compress(a))
    write("padded.gz", gzip.compress(b) + bytes(100))
    write("garbage.gz", gzip.compress(b) + b"junk")
    whole = gzip.compress(a)
    write("cut.gz", whole[: len(whole) // 2])
    bad = bytearray(whole)
    bad[-8] ^= 0xFF
    write("badcrc.gz", bytes(bad))
    write("page.gz", gzip.compress(b"<!DOCTYPE html>\n<html><head></head></html>"))

elif what == "large":
    import random
    rng = random.Random(40)
    lines = []
    size = 0
    while size < 1 << 20:
        line = b'{"latitudeE7": %d, "longitudeE7": %d, "accuracy": %d, "timestamp": "2019-%02d-%02dT%02d:%02d:%02d.%03dZ"},\n' % (
            rng.randrange(-900000000, 900000000), rng.randrange(-1800000000, 1800000000), rng.randrange(1, 3000),
            rng.randrange(1, 13), rng.randrange(1, 29), rng.randrange(24), rng.randrange(60), rng.randrange(60), rng.randrange(1000))
        lines.append(line)
        size += len(line)
    block = b"".join(lines)
    count = int(sys.argv[3])
    with zipfile.ZipFile(path("large.zip"), "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        with z.open("Records.json", "w", force_zip64=True) as f:
            f.write(b"[")
            for _ in range(count):
                f.write(block)
    write("large.size", b"%d" % (1 + count * len(block)))
"""#
}
