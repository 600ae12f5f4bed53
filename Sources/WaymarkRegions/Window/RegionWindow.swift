import WaymarkCore

/// The regions one phone holds (docs/devices.md, "Regions on the phone"): a phone monitors few
/// regions (iOS: 20 per app), so it is sent the `size` nearest to where it was, and the window is
/// valid while the phone cannot have reached any region left out. Pure.
///
/// - Geographic regions are ranked by `RegionIndex.distance(toRegionAt:from:)`: 0 inside (a
///   region the phone is in is always held), else the distance to the nearest boundary.
/// - **Choice:** beacon regions have no position, so distance cannot rank them; they are always
///   held and count in `size`, first (by identifier), since iOS counts beacon regions in the
///   same 20. More beacon regions than `size` leave no room for geographic ones.
/// - `safeRadius` is the distance from `centre` to the nearest geographic region *not* held
///   (infinite when every one is): while the phone, with its uncertainty, stays nearer to
///   `centre` than that, every region it can be in is on the phone.
public struct RegionWindow: Sendable, Equatable {
    /// Where the window was measured from.
    public var centre: Coordinate
    /// Index positions of the held regions: beacon regions first, then the nearest first.
    public var held: [Int]
    /// Metres from `centre` to the nearest geographic region not held.
    public var safeRadius: Double

    public init(centre: Coordinate, held: [Int], safeRadius: Double) {
        self.centre = centre
        self.held = held
        self.safeRadius = safeRadius
    }

    /// The window of `size` regions around `centre`; `beacons` are the index positions of the
    /// beacon regions in the order they are held.
    public init(around centre: Coordinate, size: Int, index: RegionIndex, beacons: [Int]) {
        let beaconsHeld = Array(beacons.prefix(max(size, 0)))
        let room = max(size, 0) - beaconsHeld.count
        // One more than the room: the first left out gives the safe radius.
        let nearest = index.nearest(room + 1, to: centre)
        self.init(
            centre: centre, held: beaconsHeld + nearest.prefix(room).map(\.index),
            safeRadius: nearest.count > room ? nearest[room].distance : .infinity)
    }

    /// Metres the phone may still move, from a position `moved` metres from `centre` with
    /// `uncertainty`, before a region outside the window could be reached: negative when it may
    /// already have been.
    public func clearance(moved: Double, uncertainty: Double) -> Double {
        safeRadius - moved - uncertainty
    }

    /// The clearance of a position.
    public func clearance(at position: Coordinate, uncertainty: Double) -> Double {
        safeRadius.isFinite ? clearance(moved: Geodesic.distance(centre, position), uncertainty: uncertainty) : .infinity
    }
}
