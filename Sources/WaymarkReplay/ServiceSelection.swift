import WaymarkCore
import WaymarkServices

/// The location services a replay runs besides region monitoring (`--standard`,
/// `--significant`, `--visits`, …), each behind the validation gate.
public struct ServiceSelection: Sendable {
    /// Standard updates with their filters, when asked for.
    public var standard: StandardUpdates.Configuration?
    public var significantChange = false
    public var visits = false
    /// Bounds the speed of plausible jumps in the validation gate.
    public var activity: ActivityType = .other
    /// Approximate authorization: coordinates coarsened to a ~3 km grid, no region monitoring.
    public var approximate = false

    public init() {}

    /// Whether any location service runs (the gate, and the summary's counts, apply then).
    public var isEmpty: Bool { standard == nil && !significantChange && !visits }

    /// The services, in the order their records are printed for one fix.
    func makeServices() -> [any LocationService] {
        var services: [any LocationService] = []
        if let standard { services.append(StandardUpdates(configuration: standard)) }
        if significantChange { services.append(SignificantChangeFilter()) }
        if visits { services.append(VisitDetector()) }
        return services
    }
}
