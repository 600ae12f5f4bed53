import WaymarkGeoJSON

/// Fuzzes `GeoJSONRegionDecoder.decode(_:file:)` (WaymarkGeoJSON/GeoJSON): region files
/// (`GeoJSONRegionLoader`, for `waymark serve`, `replay`, `regions import`) and the body of
/// `POST /v1/regions` (WaymarkAPI APIRoutes), both given the raw bytes. The API's decoder is
/// used (no id property, unnamed features rejected), then the loader's numbering of unnamed
/// features, on the same bytes; decoded regions are written back as the API's GET answers do.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for decoder in [GeoJSONRegionDecoder(), GeoJSONRegionDecoder(idProperty: "name", unnamedFeatures: .numberByIndex)] {
        do {
            let regions = try decoder.decode(bytes, file: "request body")
            for decoded in regions { _ = (decoded.region.summaryJSON, decoded.region.geoJSONFeatureWithOptions) }
        } catch {
            _ = error.description
        }
    }
    return 0
}
