import WaymarkCore
import WaymarkServices

extension LocationRecord.Kind {
    /// The kind of event a record of this kind is, in the history and on the stream.
    public var eventKind: EventKind {
        switch self {
        case .location: .location
        case .significantChange: .significantChange
        case .visit: .visit
        case .paused: .paused
        case .resumed: .resumed
        case .stay: .stay
        case .trip: .trip
        }
    }
}
