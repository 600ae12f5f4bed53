import WaymarkAPI

/// The devices' modes in a `GET /v1/status` answer (`devices[].mode`), by device.
struct DeviceModes: Decodable {
    private struct Activity: Decodable {
        var device: String
        var mode: PhoneModeStatus?
    }

    private var devices: [Activity]?

    var modes: [String: PhoneModeStatus] {
        Dictionary((devices ?? []).compactMap { activity in activity.mode.map { (activity.device, $0) } }, uniquingKeysWith: { a, _ in a })
    }
}
