import Foundation
import WaymarkAPI
import WaymarkCore
import WaymarkOutputs

/// Fuzzes the body of `POST /v1/outputs` (WaymarkAPI APIServer+OutputRoutes): `NewOutput`
/// decoded with `JSONDecoder`, then `output(secret:at:)`, which checks the name, parses an
/// `mqtt://` URL (WaymarkOutputs `MQTTTarget.parse`) or checks an http(s) one, and the kinds,
/// format and durations.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(bytes: data, count: size)
    do {
        let new = try JSONDecoder().decode(NewOutput.self, from: body)
        switch new.output(secret: "fuzz-secret", at: Timestamp(secondsSince1970: 1_780_000_000)) {
        case .success(let output): _ = output
        case .failure(let error): _ = (error.field, error.message)
        }
    } catch {
        _ = "\(error)"
    }
    return 0
}
