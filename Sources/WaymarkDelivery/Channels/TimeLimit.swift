/// Work with a deadline: the work and a timer race in a task group; whichever ends first
/// cancels the other. The work must end when cancelled (AsyncHTTPClient's requests and bodies
/// do, closing their connection), the group waits for it.
enum TimeLimit {
    /// `operation`'s result, or nil when `limit` passed first (the operation cancelled).
    /// A cancelled caller cancels the operation too (its error, or `CancellationError`).
    static func run<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T? {
        try await withThrowingTaskGroup(of: Race<T>.self) { group in
            group.addTask { .finished(try await operation()) }
            group.addTask {
                try await Task.sleep(for: limit)
                return .timedOut
            }
            defer { group.cancelAll() }
            switch try await group.next() {
            case .finished(let value): return value
            case .timedOut, nil: return nil
            }
        }
    }

    private enum Race<T: Sendable>: Sendable {
        case finished(T)
        case timedOut
    }
}
