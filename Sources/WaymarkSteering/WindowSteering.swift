import WaymarkCore
import WaymarkRegions

/// The regions one phone holds: the nearest N, refreshed as it moves (docs/devices.md,
/// "Batteries"). Filled in by the region window work (issue 43, item 2).
public struct WindowSteering: Sendable {
    /// How many regions the phone holds.
    public let size: Int

    public init(size: Int) {
        self.size = size
    }

    public mutating func commands(after report: PhoneReport?, regions: SteeringRegions) -> [String] { [] }
}
