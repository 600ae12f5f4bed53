// A fixture for scripts/lint-blocking-store-calls.py --self-test (not compiled): nothing here
// may be reported.
import WaymarkStore

protocol Reading {
    func regions() async throws -> [Region]
    func count() throws -> Int
}

actor Reporter: Reading {
    let store: WaymarkStore

    func regions() async throws -> [Region] {
        try await store.offPool { try $0.regions() }
    }

    func count() throws -> Int {
        try store.historyCounts().fixes
    }

    func written(_ batch: Batch, database: PostgresDatabase) async throws {
        try await database.write(batch)
        let stored = try await store.offPool({ store in try store.lastFix() })
        _ = stored
    }

    func opened(path: String) async throws -> WaymarkStore {
        // try store.regions() in a comment is not a call
        let note = "try store.regions() in a string is not one either: \(path)"
        _ = note
        return try await WaymarkStore.open(path: path, logger: logger)
    }

    func nested() async throws {
        func readNow() throws -> Int { try store.regions().count }
        _ = readNow
        let count = try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try self.store.historyCounts().fixes }) }.start()
        }
        _ = count
        _ = try store.regions()  // lint: blocking-store-call-allowed (a fixture for the opt-out)
    }
}
