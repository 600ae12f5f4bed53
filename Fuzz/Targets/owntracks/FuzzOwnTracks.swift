import WaymarkCore
@testable import WaymarkDaemon
import WaymarkOutputs
import WaymarkSources

/// Fuzzes `OwnTracksDecoder.decode` (WaymarkSources/OwnTracks) and what the product does with
/// what it decodes. Bodies arrive on `POST /v1/owntracks` (WaymarkAPI DeviceIngestServer+Routes:
/// decode, then the `topic` of each message through `OwnTracksTopic`) and as MQTT payloads
/// (WaymarkDaemon MQTTFeedService.handle: `OwnTracksFormat.isOwn`, decode, then each
/// message's `sourceEvents(received:)` for the device's pipeline). Both paths get the raw bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let payload = Array(UnsafeBufferPointer(start: data, count: size))
    _ = OwnTracksFormat.isOwn(payload, origin: "waymark-fuzz")
    let messages: [OwnTracksMessage]
    do {
        messages = try OwnTracksDecoder.decode(payload)
    } catch {
        _ = error.description
        return 0
    }
    for message in messages {
        let topic: String? = switch message {
        case .location(let location): location.topic
        case .transition(let transition): transition.topic
        default: nil
        }
        if let topic { _ = OwnTracksTopic(topic) }
        for event in message.sourceEvents(received: Timestamp(secondsSince1970: 1_780_000_000)) { _ = event }
    }
    return 0
}
