import WaymarkCore

/// A phone, tracker or receiver whose fixes Waymark records (docs/devices.md). Every device has
/// its own history, region and service state and handlers' subscriptions; `local`, the gpsd
/// receiver, always exists and has no secret (it is not fed over the network).
public struct Device: Sendable, Equatable {
    /// The gpsd receiver's device.
    public static let localName = "local"

    /// A `ShortName`: the device's identity everywhere (history, API, handlers, OwnTracks'
    /// device id, OsmAnd's `id`).
    public var name: String
    /// The person it belongs to (OwnTracks' user); defaults to the name.
    public var user: String
    /// The secret's SHA-256, when the device has one (the network listener needs it).
    public var secretHash: DeviceSecret.Hash?
    /// The secret's first characters, to tell secrets apart in listings (never enough to guess it).
    public var secretHint: String?
    public var createdAt: Timestamp

    public init(name: String, user: String? = nil, secretHash: DeviceSecret.Hash? = nil, secretHint: String? = nil, createdAt: Timestamp) {
        self.name = name
        self.user = user ?? name
        self.secretHash = secretHash
        self.secretHint = secretHint
        self.createdAt = createdAt
    }

    public var isLocal: Bool { name == Self.localName }

    /// Whether `presented` is this device's secret (constant time in the secret's content).
    public func accepts(_ presented: String) -> Bool {
        let hash = DeviceSecret.hash(presented)
        guard let secretHash else { return false }
        return hash.matches(secretHash)
    }
}
