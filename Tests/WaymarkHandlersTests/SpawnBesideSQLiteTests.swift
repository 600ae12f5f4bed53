import Foundation
import Logging
import Synchronization
import GRDB
import Testing
import WaymarkCore
import WaymarkHandlers
import WaymarkRegions
@testable import WaymarkStore
import WaymarkTestSupport

/// Handlers are spawned while other threads use SQLite, as in the daemon (the store writer, API
/// reads). A full test run once stopped in a handler spawn: the child, forked by `fork()`, was
/// running PROJ's fork handler (PROJ comes with SpatiaLite), which closes PROJ's cached SQLite
/// handle and waited forever for SQLite's memory mutex, held by another thread at the fork; the
/// parent waited for the child's exec report. The spawn now forks without other libraries'
/// fork handlers (`waymark_spawn.c`). This test puts 500 spawns beside a thread that is in
/// SQLite all the time, after PROJ has opened and cached its database, and asks that every spawn
/// comes back. It did not reproduce the hang with the old `fork()` here (the window is narrow),
/// so it guards the path rather than proving the fix; the captured stack is in the commit.
@Suite struct SpawnBesideSQLiteTests {
    @Test func spawnsReturnWhileAnotherThreadIsInSQLite() async throws {
        let directory = try TemporaryDirectory()
        // A reprojection through SpatiaLite in a store that is then closed: PROJ opened its own
        // SQLite database (proj.db), registered its fork handler, and keeps the handle cached
        // after the store's connection is gone, so that handler closes it in a forked child.
        let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        do {
            let scratch = try WaymarkStore.temporary(logger: quiet)
            let projected = try await scratch.database.read { db in
                try String.fetchOne(db, sql: "SELECT AsText(ST_Transform(MakePoint(8.54, 47.37, 4326), 32632))")
            }
            #expect(projected?.hasPrefix("POINT(4") == true, "\(projected ?? "nil")")
        }
        // Meanwhile the daemon's threads are in SQLite: a store on a file, read all the time.
        let store = try WaymarkStore(path: directory.path("w.sqlite"), logger: quiet)
        let centre = Coordinate(latitude: 47.37, longitude: 8.54)
        _ = try store.importRegions([Region(identifier: "plaza", shape: .circle(center: centre, radius: 100))], replace: true)
        let counts = Counts()
        let reader = Thread {
            while !counts.stop.load(ordering: .relaxed) {
                _ = try? store.containingRegionIdentifiers(centre)
                counts.reads.add(1, ordering: .relaxed)
            }
        }
        reader.start()
        defer { counts.stop.store(true, ordering: .relaxed) }

        let spawns = 500
        let finished = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                (try? await onOwnThread {
                    for _ in 0..<spawns where !counts.stop.load(ordering: .relaxed) {
                        let process = try HandlerProcess.spawn(
                            executable: "/bin/true", arguments: [], environment: [:], directory: "/", logPath: nil)
                        var status: Int32 = 0
                        _ = waitpid(process.pid, &status, 0)
                        counts.spawned.add(1, ordering: .relaxed)
                    }
                    return true
                }) ?? false
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(120))
                return false
            }
            let first = await group.next() ?? false
            if !first {
                // Hung: end the loop and free the spawn by killing children stuck before execve
                // (still this test binary), so the test fails instead of hanging.
                counts.stop.store(true, ordering: .relaxed)
                Self.killChildrenThatNeverExecuted()
            }
            group.cancelAll()
            return first
        }
        #expect(finished && counts.spawned.load(ordering: .relaxed) == spawns, "\(counts.spawned.load(ordering: .relaxed)) of \(spawns) spawns returned")
        #expect(counts.reads.load(ordering: .relaxed) > spawns, "the reader thread was not busy in SQLite meanwhile")
    }

    /// What the threads share.
    final class Counts: Sendable {
        let stop = Atomic<Bool>(false)
        let reads = Atomic<Int>(0)
        let spawned = Atomic<Int>(0)
    }

    /// SIGKILLs this process's children whose executable is still this test binary.
    static func killChildrenThatNeverExecuted() {
        let me = getpid()
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { continue }
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            guard fields.count > 2, Int32(fields[1]) == me,
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == own
            else { continue }
            kill(pid, SIGKILL)
        }
    }
}
