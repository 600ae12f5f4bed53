import Foundation
import Logging
import Testing
import WaymarkCore
import WaymarkStore
import WaymarkTestSupport

/// `--retention-days` in a running daemon (docs/configuration.md): history older than the period
/// is deleted at start and the rest kept (the pruning now runs on the store's own queue).
@Suite struct ServeRetentionTests {
    @Test func aDaemonPrunesOldHistoryAtStart() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        let store = try await WaymarkStore.open(path: db, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let now = Date().timeIntervalSince1970
        let old = Timestamp(secondsSince1970: now - 10 * 86_400)
        let recent = Timestamp(secondsSince1970: now - 3600)
        for time in [old, recent] {
            _ = try await store.offPool {
                try $0.recordFix(Fix(time: time, coordinate: Coordinate(latitude: 47, longitude: 8), horizontalAccuracy: 5, mode: .threeD), source: "test")
            }
        }
        let daemon = try BackgroundProcess.waymark([
            "serve", "--gpsd", "127.0.0.1:9", "--db", db, "--socket", directory.path("api.sock"), "--retention-days", "2",
        ])
        try await daemon.whileRunning {
            let pruned = try await BackgroundProcess.waitUntil(timeout: 20) {
                (try? await store.offPool { try $0.historyCounts().fixes }) == 1
            }
            #expect(pruned, "\(daemon.stderr.suffix(2000))")
            let left = try await runWaymark(["history", "--db", db, "--kind", "fix"]).stdoutLines
            #expect(left.count == 1 && left.first?.contains(recent.rfc3339.prefix(16)) == true, "\(left)")
        }
    }
}
