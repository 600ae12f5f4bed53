import Foundation
import WaymarkCore

extension Timestamp {
    /// The system clock's current time (start-up, retention, registrations: not the pipeline,
    /// which reads the daemon's injected clock).
    static var now: Timestamp { Timestamp(secondsSince1970: Date().timeIntervalSince1970) }
}
