/// The accuracy a standard-updates handler asks for (docs/semantics.md §2), with Core Location's
/// values: `kCLLocationAccuracyBestForNavigation` (−2), `kCLLocationAccuracyBest` (−1), and
/// 10, 100, 1000 and 3000 metres.
public enum DesiredAccuracy: Int, Sendable, Hashable, CaseIterable {
    case bestForNavigation = -2
    case best = -1
    case tenMeters = 10
    case hundredMeters = 100
    case kilometer = 1000
    case threeKilometers = 3000

    /// Parses a command-line or configuration value: `best-for-navigation`, `best`, `10`,
    /// `100`, `1000`, `3000`. Anything else is `nil`.
    public init?(argument: String) {
        switch argument {
        case "best-for-navigation": self = .bestForNavigation
        case "best": self = .best
        case "10": self = .tenMeters
        case "100": self = .hundredMeters
        case "1000": self = .kilometer
        case "3000": self = .threeKilometers
        default: return nil
        }
    }

    /// The spelling `init(argument:)` accepts.
    public var argument: String {
        switch self {
        case .bestForNavigation: "best-for-navigation"
        case .best: "best"
        default: String(rawValue)
        }
    }

    /// The largest horizontal error, in metres, a fix may report and still be delivered; a fix
    /// exactly at the limit is delivered. A fix that reports no horizontal accuracy is always
    /// acceptable (nothing is known against it).
    ///
    /// Core Location gives no figure for the two "best" levels; Waymark uses 5 m for
    /// best-for-navigation and 10 m for best (what a good GNSS fix in the open reports), and
    /// the level's own distance for the others. Every level has a limit today; `nil` would
    /// mean "no limit".
    public var maximumHorizontalAccuracy: Double? {
        switch self {
        case .bestForNavigation: 5
        case .best: 10
        case .tenMeters: 10
        case .hundredMeters: 100
        case .kilometer: 1000
        case .threeKilometers: 3000
        }
    }

    /// Whether a fix with this horizontal error (metres, `nil` when unknown) may be delivered.
    public func accepts(horizontalAccuracy: Double?) -> Bool {
        guard let accuracy = horizontalAccuracy, let limit = maximumHorizontalAccuracy else { return true }
        return accuracy <= limit
    }
}
