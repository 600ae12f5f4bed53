import WaymarkSources

/// Fuzzes `GPXReader` (WaymarkSources/GPX: the XML scanner and the GPX reader over it), which
/// reads every GPX file the product is given: `waymark replay`, `waymark export`/`stats`
/// (WaymarkExportJob's GPXTrackInput) and `waymark bench`, all through
/// `GPXReader(path:)` and `nextPoint()` until nil or an error.
///
/// The bytes are read twice: with the product's 256 KiB buffer, and with a 7-byte buffer so that
/// every token straddles a refill, as tokens do at the buffer boundaries of large files. Both
/// reads must give the same points and an error with the same code and location; a
/// difference traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = read(bytes, bufferSize: GPXReader.defaultBufferSize)
    let chunked = read(bytes, bufferSize: 7)
    // fatalError, not precondition: its message is kept in release builds.
    if whole.points != chunked.points {
        fatalError("points differ with a 7-byte buffer: \(whole.points.count) vs \(chunked.points.count) points; first difference at \(String(describing: zip(whole.points, chunked.points).enumerated().first { $0.element.0 != $0.element.1 }))")
    }
    // The error's code and place must agree; its message may quote less of a name that runs
    // past the small buffer's end (reported separately; docs/reliability.md).
    if whole.error?.code != chunked.error?.code || whole.error?.location != chunked.error?.location {
        fatalError("errors differ with a 7-byte buffer: \(String(describing: whole.error)) vs \(String(describing: chunked.error))")
    }
    return 0
}

private func read(_ bytes: [UInt8], bufferSize: Int) -> (points: [GPXPoint], error: GPXError?) {
    var reader = GPXReader(bytes: bytes, name: "fuzz.gpx", bufferSize: bufferSize)
    var points: [GPXPoint] = []
    do {
        while let point = try reader.nextPoint() { points.append(point) }
        _ = (reader.version, reader.trackCount, reader.routeCount)
        return (points, nil)
    } catch let error as GPXError {
        _ = error.description
        return (points, error)
    } catch {
        fatalError("GPXReader threw something other than GPXError: \(error)")
    }
}
