import WaymarkCore

/// Which events an output is sent, like a handler's subscriptions: empty lists mean all.
/// Kinds default to region and beacon transitions (what home automation reacts to).
public struct OutputFilter: Sendable, Equatable, Codable {
    public var regions: [String]
    public var devices: [String]
    public var kinds: [EventKind]

    public static let defaultKinds: [EventKind] = [.region, .beacon]

    public init(regions: [String] = [], devices: [String] = [], kinds: [EventKind] = OutputFilter.defaultKinds) {
        self.regions = regions
        self.devices = devices
        self.kinds = kinds
    }

    public func matches(_ event: OutputEvent) -> Bool {
        (kinds.isEmpty || kinds.contains(event.kind))
            && (devices.isEmpty || devices.contains(event.device))
            && (regions.isEmpty || event.region.map(regions.contains) == true)
    }
}
