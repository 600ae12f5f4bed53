import Foundation
import Logging
import WaymarkStore

/// A Waymark store in a private temporary file, for the single daemon's code to run over what
/// an api node copied from PostgreSQL (an export; a region import's validation). Opened and
/// removed off the cooperative pool.
struct ScratchStore: Sendable {
    let store: WaymarkStore
    let path: String

    static func with<T: Sendable>(logger: Logger, _ body: (ScratchStore) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let path = directory.appendingPathComponent("scratch.sqlite").path
        let store = try await WaymarkStore.open(path: path, logger: logger)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(ScratchStore(store: store, path: path))
    }
}
