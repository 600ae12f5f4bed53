import WaymarkHandlers

/// Fuzzes `HandlerRegistration.fromRequest` (WaymarkHandlers/Model: the Codable decoding with
/// the CLI's defaults), the body of `POST /v1/handlers`, then what WaymarkDaemon's
/// `DaemonState.registerHandler` does next with a decoded registration: `validate` (here with
/// no stored regions) and `encoded()`, the JSON it stores.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let registration = try HandlerRegistration.fromRequest(body)
        do {
            try registration.validate { _ in nil }
        } catch {
            _ = "\(error)"
        }
        let stored = try registration.encoded()
        if (try? HandlerRegistration.decode(stored)) != registration {
            fatalError("a stored registration does not read back as itself: \(stored)")
        }
    } catch {
        _ = "\(error)"
    }
    return 0
}
