import WaymarkCore
import WaymarkDevices

/// A device as the API shows it (docs/api.md, docs/devices.md). `secret` is present once: in
/// the answer that made it (`POST /v1/devices`, `POST /v1/devices/{name}/secret`).
public struct DeviceStatus: Codable, Sendable, Equatable {
    public var name: String
    public var user: String
    /// Whether the device can authenticate over the network.
    public var hasSecret: Bool
    /// The secret's first characters, to tell secrets apart.
    public var secretHint: String?
    /// RFC 3339, whole seconds (as the `local` device's, which the migration made).
    public var createdAt: String
    public var secret: String?
    /// The phone's monitoring mode, as `GET /v1/status` gives it (`waymark devices list` adds
    /// it; `GET /v1/devices` does not).
    public var mode: PhoneModeStatus?

    public init(_ device: Device, secret: DeviceSecret? = nil) {
        name = device.name
        user = device.user
        hasSecret = device.secretHash != nil
        secretHint = device.secretHint
        createdAt = device.createdAt.secondStart.rfc3339
        self.secret = secret?.text
    }
}

/// `{"devices":[…]}`.
public struct DeviceList: Codable, Sendable, Equatable {
    public var devices: [DeviceStatus]

    public init(devices: [DeviceStatus]) { self.devices = devices }
}

/// The body of `POST /v1/devices`.
public struct NewDevice: Codable, Sendable, Equatable {
    public var name: String
    public var user: String?

    public init(name: String, user: String? = nil) {
        self.name = name
        self.user = user
    }
}
