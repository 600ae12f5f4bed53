import WaymarkBeacons
import WaymarkCore

/// What a source hands a device's pipeline: a position, a moment without one, a beacon
/// advertisement, or time passing. Sources (gpsd, a GPX replay, a beacon file, a Bluetooth
/// adapter) produce these; nothing else reaches the pipeline.
public enum PipelineInput: Sendable, Equatable {
    /// A position report, as the receiver gave it (the gate decides what it is good for).
    case fix(Fix)
    /// No position at `time`: the receiver reported no fix, or the source went away.
    case gap(time: Timestamp, reason: String)
    /// An iBeacon advertisement.
    case advertisement(BeaconAdvertisement)
    /// Time has passed without input (a live source's clock): beacon exits and rangings fall due.
    case tick(Timestamp)
}

extension PipelineInput {
    /// The input's own time, when it has one.
    public var time: Timestamp? {
        switch self {
        case .fix(let fix): fix.time
        case .gap(let time, _), .tick(let time): time
        case .advertisement(let advertisement): advertisement.time
        }
    }
}
