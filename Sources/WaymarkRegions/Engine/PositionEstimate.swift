import WaymarkCore

/// Where the region engine takes a device at rest to be, from several fixes
/// (docs/semantics.md §3.3, "At rest"): the mean of the fixes of the rest, and how sure that
/// mean is.
public struct PositionEstimate: Sendable, Equatable {
    /// The mean position of the fixes combined.
    public var coordinate: Coordinate
    /// One standard deviation of the mean, horizontal (radial RMS), metres: the fixes' own
    /// error (their stated accuracy, or their scatter when that is larger or none is stated)
    /// divided by the square root of how many independent fixes they amount to.
    public var uncertainty: Double
    /// One fix's error, metres: the fixes' stated accuracy, or their scatter when that is
    /// larger or none is stated.
    public var spread: Double
    /// Whether the fixes stated their accuracy (else `spread` is their scatter alone).
    public var stated: Bool
    /// Fixes combined.
    public var fixes: Int
    /// Seconds from the first fix combined to the last.
    public var span: Double

    public init(coordinate: Coordinate, uncertainty: Double, spread: Double, stated: Bool = true, fixes: Int, span: Double) {
        self.coordinate = coordinate
        self.uncertainty = uncertainty
        self.spread = spread
        self.stated = stated
        self.fixes = fixes
        self.span = span
    }
}
