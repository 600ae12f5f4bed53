/// How the daemon steers phones (docs/configuration.md, `devices.power_policy`,
/// `devices.region_window`, `devices.per_device`): a default for every device, overridable per
/// device.
public struct SteeringSettings: Sendable, Equatable {
    /// Whether Waymark switches a phone between significant and move mode.
    public enum PowerPolicy: String, Sendable, Equatable, CaseIterable {
        /// Waymark sends no mode commands; the phone keeps the mode its user chose.
        case off
        /// Waymark chooses the mode from the distance to the nearest region, the speed and the
        /// time since the last report (`PhoneModePolicy`).
        case auto
    }

    /// One device's own values; nil keeps the default.
    public struct Override: Sendable, Equatable {
        public var powerPolicy: PowerPolicy?
        public var regionWindow: Int?

        public init(powerPolicy: PowerPolicy? = nil, regionWindow: Int? = nil) {
            self.powerPolicy = powerPolicy
            self.regionWindow = regionWindow
        }
    }

    /// iOS monitors at most 20 regions per app.
    public static let defaultRegionWindow = 20

    public var powerPolicy: PowerPolicy
    /// How many regions each phone holds: the nearest N.
    public var regionWindow: Int
    /// Device name → its own values.
    public var perDevice: [String: Override]

    public init(powerPolicy: PowerPolicy = .auto, regionWindow: Int = Self.defaultRegionWindow, perDevice: [String: Override] = [:]) {
        self.powerPolicy = powerPolicy
        self.regionWindow = regionWindow
        self.perDevice = perDevice
    }

    public func powerPolicy(for device: String) -> PowerPolicy { perDevice[device]?.powerPolicy ?? powerPolicy }

    public func regionWindow(for device: String) -> Int { perDevice[device]?.regionWindow ?? regionWindow }
}

extension PhoneSteering {
    /// A device's steering as `settings` say, before its first report.
    public init(device: String, settings: SteeringSettings) {
        self.init(mode: ModeSteering(policy: settings.powerPolicy(for: device)), window: WindowSteering(size: settings.regionWindow(for: device)))
    }
}
