import WaymarkImport

#if canImport(Glibc)
import Glibc
#endif

/// Fuzzes what `waymark import` does with a file (WaymarkImport): recognising its format from its
/// content (zip, gzip, JSON, XML, FIT, CSV, OwnTracks Recorder, NMEA, gpsd), listing an archive's
/// members, and reading every entry to its end or its error, as `HistoryImporter` does.
///
/// The bytes go to a file first (the importer opens paths, and archives are read by offset).
/// Each reader must stop with an `ImportError` or nil (typed throws make anything else a
/// compile error), and every fix it returns must be one a history can hold: timed, on Earth.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = "/tmp/waymark-fuzz-import-\(getpid())"
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { fatalError("cannot write \(path)") }
    var written = 0
    while written < size {
        let count = write(descriptor, data + written, size - written)
        guard count > 0 else { fatalError("cannot write \(path)") }
        written += count
    }
    close(descriptor)
    defer { unlink(path) }

    guard let listing = try? ImportSources.entries(for: [path]) else { return 0 }
    for entry in listing.entries {
        guard var opened = try? entry.openReader() else { continue }
        var items = 0
        do {
            while let item = try opened.reader.next(), items < 200_000 {
                items += 1
                if case .fix(let fix) = item, fix.time == nil || !fix.coordinate.isValid {
                    fatalError("\(entry.format) reader returned a fix no history can hold: \(fix)")
                }
            }
        } catch {
            _ = error.description
        }
    }
    return 0
}
