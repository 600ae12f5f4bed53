// A fixture for scripts/lint-blocking-store-calls.py --self-test (not compiled): every line
// marked `expect: blocking` must be reported, and nothing else.
import WaymarkStore

actor Reporter {
    let store: WaymarkStore

    func regions() async throws -> Int {
        try store.regions().count  // expect: blocking
    }

    init(path: String) async throws {
        store = try WaymarkStore(path: path, logger: logger)  // expect: blocking
    }

    func raw() async throws {
        let count = try store.database.read { db in  // expect: blocking
            try Int.fetchOne(db, sql: "SELECT count(*) FROM fixes")
        }
        _ = count
    }

    public func later(
        after seconds: Double
    ) async throws -> [String] where Self: Sendable {
        try await Task.sleep(for: .seconds(seconds))
        return try self.store.handlers().map(\.name)  // expect: blocking
    }

    func synchronous() {
        Task {
            _ = try? store.lastFix()  // expect: blocking
            _ = try? MBTilesFile(path: "basemap.mbtiles")  // expect: blocking
        }
    }

    func afterAnOffPoolCall(database: DatabaseQueue) async throws {
        _ = try await store.offPool { try $0.regions() }
        try database.write { db in try db.execute(sql: "DELETE FROM fixes") }  // expect: blocking
    }
}
