import Foundation
import WaymarkAPI
import WaymarkDevices

/// Fuzzes the body of `POST /v1/devices` (WaymarkAPI APIServer+DeviceRoutes): `NewDevice`
/// decoded with `JSONDecoder`, then the name and user checked with `DeviceName.problem(with:)`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(bytes: data, count: size)
    do {
        let new = try JSONDecoder().decode(NewDevice.self, from: body)
        _ = DeviceName.problem(with: new.name)
        if let user = new.user { _ = DeviceName.problem(with: user) }
    } catch {
        _ = "\(error)"
    }
    return 0
}
