import Foundation

/// A value guarded by a lock. The package declares only NIOCore/NIOPosix/Logging, so this stands
/// in for NIOConcurrencyHelpers' `NIOLockedValueBox` instead of importing an undeclared module.
final class LockedBox<Value>: @unchecked Sendable {
    // Safety: `value` is only touched inside `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLockedValue<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
