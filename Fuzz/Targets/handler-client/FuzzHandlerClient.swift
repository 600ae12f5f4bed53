import Foundation
@testable import WaymarkClient

/// Fuzzes the handler-side client library's reading of the daemon's lines (WaymarkClient
/// WaymarkHandlerClient: `parse`, a line through `JSONSerialization`, then `dispatch`, whose
/// `event` messages become a `LocationEvent(message:)`). `parse` and `dispatch` are private,
/// so their two steps are repeated here on each line of the input, decoded as `LineReader`
/// decodes it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let stream = UnsafeBufferPointer(start: data, count: size)
    for line in stream.split(separator: 0x0A, omittingEmptySubsequences: false) {
        let text = String(decoding: line, as: UTF8.self)
        guard let message = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else { continue }
        if message["type"] as? String == "event", let event = LocationEvent(message: message) {
            _ = (event.json, event.kind, event.latitude)
        }
    }
    return 0
}
