import Foundation

/// Time as the daemon accounts and schedules it: the current UTC instant, and waiting until
/// one. Components that account energy or schedule the receiver take one, so tests run them on
/// a manual clock, instantly and deterministically.
public protocol WallClock: Sendable {
    /// The current instant.
    var now: Timestamp { get }
    /// Returns at `deadline` (at once when it has passed); throws `CancellationError` when the
    /// task is cancelled first.
    func sleep(until deadline: Timestamp) async throws
}

/// The system's clock: `now` from the real-time clock, waits on the continuous clock.
public struct SystemWallClock: WallClock {
    public init() {}

    public var now: Timestamp { Timestamp(secondsSince1970: Date().timeIntervalSince1970) }

    public func sleep(until deadline: Timestamp) async throws {
        let seconds = deadline.seconds(since: now)
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) }
        try Task.checkCancellation()
    }
}
