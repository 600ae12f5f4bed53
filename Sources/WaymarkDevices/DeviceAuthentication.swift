import WaymarkCore

/// Which device a request comes from, given its credentials and the device it says it is (the
/// rules of docs/devices.md). Pure: the caller looks devices up.
public struct DeviceAuthentication {
    /// A refusal: 401 when nothing valid was presented, 403 when valid credentials claim
    /// another device's data.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Status: Int, Sendable { case unauthorized = 401, forbidden = 403 }
        public var status: Status
        public var message: String
        public var description: String { message }
    }

    /// The device of this name, if any.
    public var device: (String) -> Device?
    /// The device whose secret has this hash, if any (the store indexes the hashes).
    public var deviceWithSecret: (DeviceSecret.Hash) -> Device?

    public init(device: @escaping (String) -> Device?, deviceWithSecret: @escaping (DeviceSecret.Hash) -> Device?) {
        self.device = device
        self.deviceWithSecret = deviceWithSecret
    }

    /// The authenticated device.
    ///
    /// - A bearer secret names its device by itself.
    /// - Basic credentials: the device is `claimed` when the request names one (OwnTracks'
    ///   `X-Limit-D`, `?d=`, the topic; OsmAnd's `id`), else the one named by the Basic user;
    ///   the Basic user must be that device's name or its user, and the password its secret.
    /// - Either way, a request that names a device must name the authenticated one: a device
    ///   never writes another's data.
    public func authenticate(_ credentials: DeviceCredentials?, claimed: String?) throws(Refusal) -> Device {
        let found: Device
        switch credentials {
        case nil:
            throw Refusal(status: .unauthorized, message: "credentials required: a device's secret as a bearer token or a Basic password")
        case .bearer(let secret):
            guard let device = deviceWithSecret(DeviceSecret.hash(secret)) else {
                throw Refusal(status: .unauthorized, message: "the bearer token is no device's secret")
            }
            found = device
        case .basic(let user, let secret):
            let named = device(claimed ?? user)
            // The password is hashed and compared whether or not the device exists, so a wrong
            // guess at an unknown device costs what one at a known device costs.
            let accepted = (named ?? Self.nobody).accepts(secret)
            guard let device = named, accepted, device.name == user || device.user == user else {
                throw Refusal(status: .unauthorized, message: "wrong user or password for device '\(claimed ?? user)'")
            }
            found = device
        }
        if let claimed, claimed != found.name {
            throw Refusal(status: .forbidden, message: "authenticated as device '\(found.name)', which may not write device '\(claimed)'")
        }
        return found
    }

    /// What a password is checked against when the device does not exist: a hash no secret has
    /// (all zero bytes), so the check runs and always fails.
    private static let nobody = Device(
        name: "", user: nil, secretHash: DeviceSecret.Hash(bytes: [UInt8](repeating: 0, count: 32)), secretHint: nil,
        createdAt: Timestamp(secondsSince1970: 0))
}
