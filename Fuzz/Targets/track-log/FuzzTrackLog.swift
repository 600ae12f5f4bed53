import WaymarkSources

#if canImport(Glibc)
import Glibc
#endif

/// Fuzzes `TrackFileSource` (WaymarkSources/Logs) on receivers' logs: the format told by the
/// content, then NMEA 0183 sentences (`NMEAFixSource`) or gpsd JSON reports
/// (`GpsdLogFixSource`), which `waymark replay` and `serve --replay` read with `next()` until
/// nil or an error. The sources only open paths, so each input is written to one temporary
/// file and read from there, as the product reads.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let file = fopen(logPath, "w") else { fatalError("cannot write \(logPath)") }
    if size > 0, fwrite(data, 1, size, file) != size { fatalError("short write to \(logPath)") }
    fclose(file)
    // Every format, not only the detected one: each reader meets every input.
    for format in [nil] + TrackFormat.allCases.filter({ $0 != .gpx }).map(Optional.some) {
        do {
            var source = try TrackFileSource(path: logPath, format: format)
            while let fix = try source.next() { _ = fix }
            _ = (source.pointCount, source.untimedPointCount)
        } catch {
            _ = "\(error)"
        }
    }
    return 0
}

private let logPath: String = {
    let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    return "\(directory)/waymark-fuzz-track-log-\(getpid()).log"
}()
