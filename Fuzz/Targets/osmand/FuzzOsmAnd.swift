import WaymarkSources

/// Fuzzes `OsmAndDecoder` (WaymarkSources/OsmAnd: parameters, values, timestamps) as
/// `GET|POST /v1/osmand` calls it (WaymarkAPI DeviceIngestServer+Routes): a form body as raw
/// bytes (`decode(formBody:)`), and a query string as the text Hummingbird hands over
/// (`decode(query:)`, the same bytes decoded as UTF-8), in both speed units.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let query = String(decoding: bytes, as: UTF8.self)
    for decoder in [OsmAndDecoder(), OsmAndDecoder(speedUnit: .metresPerSecond)] {
        do { _ = try decoder.decode(formBody: bytes) } catch { _ = error.description }
        do { _ = try decoder.decode(query: query) } catch { _ = error.description }
    }
    return 0
}
