import Foundation

/// Asks a partition (or output) consumer to stop after the batch in hand. Cancelling it instead could
/// abandon a pull request the server goes on filling for its remaining wait; those fixes would
/// then be redelivered only after the ack wait, behind newer ones (docs/fleet.md, "Order").
final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false

    var isSet: Bool { lock.withLock { stopped } }

    func set() { lock.withLock { stopped = true } }
}
