import Foundation

/// The days whose history tables exist, as far as this node knows: shared by its partitions'
/// writers, so each day's tables are made once per node.
final class KnownDays: @unchecked Sendable {
    private let lock = NSLock()
    private var set: Set<Int64> = []

    var days: Set<Int64> { lock.withLock { set } }

    func add(_ days: Set<Int64>) { lock.withLock { set.formUnion(days) } }
}
