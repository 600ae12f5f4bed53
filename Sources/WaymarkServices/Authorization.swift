#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import WaymarkCore

/// What a handler is allowed to receive (docs/semantics.md §2): *when in use* or *always*, and
/// *precise* or *approximate* coordinates, as on iOS.
public struct Authorization: Sendable, Hashable {
    /// When the handler may receive locations.
    public enum Level: String, Sendable, Hashable, CaseIterable {
        /// Only while the handler is active.
        case whenInUse
        /// Also in the background; a terminated handler may be relaunched for standard updates.
        case always
    }

    /// How exact the coordinates it receives are.
    public enum Precision: String, Sendable, Hashable, CaseIterable {
        case precise
        /// Coordinates snapped to a grid of about 3 km (`ApproximateLocation`).
        case approximate
    }

    public var level: Level
    public var precision: Precision

    public init(level: Level, precision: Precision = .precise) {
        self.level = level
        self.precision = precision
    }

    /// Region monitoring needs precise locations; approximate authorization disables it, as
    /// iOS 14 does.
    public var allowsRegionMonitoring: Bool { precision == .precise }

    /// Beacon monitoring and ranging: likewise only with precise locations.
    public var allowsBeaconMonitoring: Bool { precision == .precise }

    /// Whether standard updates may relaunch a terminated handler: only with "always"
    /// (docs/semantics.md §2's table).
    public var relaunchesForStandardUpdates: Bool { level == .always }
}

/// The coarse grid approximate authorization snaps coordinates to.
///
/// Latitude is cut into bands of 180°/6667 (≈ 0.027°, ≈ 3.0 km). Each band is cut into a whole
/// number of cells around the globe, as many as fit at ≈ 3 km wide at the band's centre
/// latitude (at least one), so cells are about 3 km × 3 km everywhere, the grid has no seam at
/// the antimeridian, and every cell centre lies inside −90…90, −180…180. A coordinate maps to
/// its cell's centre: the same input always gives the same output, and all points of one cell
/// give the identical coordinate.
public enum ApproximateLocation {
    /// Number of latitude bands from pole to pole.
    public static let bandCount = 6667
    /// Height of a band in degrees of latitude (≈ 0.027°, ≈ 3.0 km).
    public static let bandHeight = 180.0 / Double(bandCount)

    /// The centre of the grid cell that holds `c` (degrees). `c` must be valid.
    public static func coarsen(_ c: Coordinate) -> Coordinate {
        let band = min(max(Int(((c.latitude + 90) / bandHeight).rounded(.down)), 0), bandCount - 1)
        let latitude = -90 + (Double(band) + 0.5) * bandHeight
        let cells = cellCount(inBandCentredAt: latitude)
        let width = 360 / Double(cells)
        // −180 and 180 are the same meridian: both land in cell 0.
        let cell = Int(((c.longitude + 180) / width).rounded(.down)) % cells
        let longitude = -180 + (Double(max(cell, 0)) + 0.5) * width
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Cells around the band whose centre is at `latitude`: ≈ 3 km wide there.
    static func cellCount(inBandCentredAt latitude: Double) -> Int {
        let circumferenceInBandHeights = 360 * cos(latitude * .pi / 180) / bandHeight
        return max(1, Int(circumferenceInBandHeights.rounded(.down)))
    }
}
