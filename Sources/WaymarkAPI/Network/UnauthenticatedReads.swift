import Synchronization

/// A bound on the request bodies the device listener reads before it knows who sent them: at
/// most `limit` at once, each at most `maximumBodySize` bytes, so what unauthenticated clients
/// can make the daemon hold is `limit × maximumBodySize` (16 × 64 KiB = 1 MiB by default)
/// however many connections they open (docs/security.md, "Work before authentication").
/// Requests that authenticate from their head never take a place.
final class UnauthenticatedReads: Sendable {
    let limit: Int
    private let reading = Mutex(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a place; false when all `limit` are taken.
    func begin() -> Bool {
        reading.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives back a place taken by `begin`.
    func end() {
        reading.withLock { $0 -= 1 }
    }
}
