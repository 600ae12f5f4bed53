import WaymarkRegions

/// Where a device's input stands in the fleet's database: what its pipeline restores, and the
/// last stream sequence applied (a redelivered fix at or below it was already applied).
struct DeviceResume: Sendable, Equatable {
    var states: SavedRegionStates
    var lastSequence: UInt64
}
