import Synchronization
import WaymarkDelivery
import WaymarkOutputs

/// What a cursor in memory was told, in order.
final class CursorLog: Sendable {
    private let entries = Mutex<[String]>([])

    func add(_ entry: String) { entries.withLock { $0.append(entry) } }

    var all: [String] { entries.withLock { $0 } }
}

/// An `OutputCursor` over batches given up front: the runner's side of the protocol, without a
/// store or a bus. Ends (nil) when the batches run out.
struct MemoryOutputCursor: OutputCursor {
    var batches: [[OutputEvent]]
    var requeuedEvents: [OutputEvent] = []
    let log = CursorLog()

    var isStopping: Bool { false }

    func requeued() async throws -> [OutputEvent] { requeuedEvents }

    func settleRequeued(_ event: OutputEvent) async throws { log.add("settled \(event.sequence)") }

    mutating func next() async throws -> [OutputEvent]? {
        guard !batches.isEmpty else { return nil }
        return batches.removeFirst()
    }

    mutating func commit() async throws { log.add("commit") }

    mutating func release(redeliverAfter delay: Duration) async { log.add("release") }

    func deadLetter(_ event: OutputEvent, error: String) async throws { log.add("dead letter \(event.sequence)") }

    func disable(reason: String) async throws { log.add("disable \(reason)") }
}

/// A `PositionCursor` over batches of fixes given up front.
struct MemoryPositionCursor: PositionCursor {
    var batches: [[OutputFix]]
    let log = CursorLog()

    var isStopping: Bool { false }

    mutating func next(due: Duration?) async throws -> [OutputFix]? {
        guard !batches.isEmpty else { return nil }
        return batches.removeFirst()
    }

    mutating func settle(_ fix: OutputFix) async throws { log.add("settle \(fix.sequence)") }

    mutating func hold(_ fix: OutputFix) { log.add("hold \(fix.sequence)") }

    mutating func checkpoint() async {}

    mutating func release() async { log.add("release") }
}
