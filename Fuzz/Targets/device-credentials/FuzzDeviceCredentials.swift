import WaymarkDevices

/// Fuzzes `DeviceCredentials.parse(authorization:)` (WaymarkDevices): the `Authorization`
/// header of every request to the device listener (WaymarkAPI DeviceIngestServer+Routes
/// `authenticate`), Bearer or Basic (base64 of USER:SECRET). The header arrives as text, so the
/// bytes are decoded as UTF-8 first.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let header = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        _ = try DeviceCredentials.parse(authorization: header)
    } catch {
        _ = error.description
    }
    return 0
}
