import WaymarkSources

#if canImport(Glibc)
import Glibc
#endif

/// Fuzzes `BeaconReplayReader` (WaymarkSources/Beacons): beacon replay files, JSON Lines of
/// decoded advertisements or captured HCI packets, which `waymark replay --beacons` and
/// `waymark serve` in replay mode read with `BeaconReplayReader(path:)` and `next()` until nil
/// or an error. The reader only opens paths, so each input is written to one temporary file
/// (in $TMPDIR, named after the process) and read from there, as the product reads.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let file = fopen(replayPath, "w") else { fatalError("cannot write \(replayPath)") }
    if size > 0, fwrite(data, 1, size, file) != size { fatalError("short write to \(replayPath)") }
    fclose(file)
    do {
        var reader = try BeaconReplayReader(path: replayPath)
        defer { reader.close() }
        while let advertisement = try reader.next() { _ = advertisement }
        _ = (reader.lines, reader.counts)
    } catch {
        _ = error.description
    }
    return 0
}

private let replayPath: String = {
    let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    return "\(directory)/waymark-fuzz-beacon-replay-\(getpid()).jsonl"
}()
