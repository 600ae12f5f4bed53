import WaymarkGeoJSON

/// Fuzzes `JSONParser.parse` (WaymarkGeoJSON/JSON), the strict RFC 8259 parser under every
/// JSON body the product reads without Foundation: GeoJSON region files and `POST /v1/regions`,
/// OwnTracks bodies (HTTP and MQTT) and beacon replay lines. It gets the raw bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let root = try JSONParser.parse(bytes)
        _ = root.member("type")
        _ = root.value.typeName
    } catch {
        _ = error.description
    }
    return 0
}
