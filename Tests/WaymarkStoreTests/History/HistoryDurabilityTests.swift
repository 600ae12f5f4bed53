import Foundation
import GRDB
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkStore

/// Whether the built `waymark` has the hidden `debug write-fixes` drill (wired by the CLI).
/// Probed by running it for zero fixes: `--help` is no test, ArgumentParser answers it with the
/// root command's help (status 0) when the subcommand does not exist.
@Sendable private func drillAvailable() async -> Bool {
    guard FileManager.default.isExecutableFile(atPath: ProjectPaths.waymarkExecutable.path),
        let folder = try? TemporaryDirectory(prefix: "waymark-drill-probe")
    else { return false }
    let probe = try? await runWaymark(["debug", "write-fixes", "--db", folder.path("probe.sqlite"), "--count", "0"])
    return probe?.status == 0 && FileManager.default.fileExists(atPath: folder.path("probe.sqlite"))
}

@Suite struct HistoryDurabilityTests {
    /// A real child process records fixes one per transaction through `recordFix` and prints
    /// each committed id; it is killed with SIGKILL mid-stream. Every acknowledged fix must be
    /// there, and the file and its spatial index must be intact.
    @Test(
        .enabled(
            "`waymark debug write-fixes --db PATH --count N` is not wired into the CLI yet (it calls HistoryWriterDrill.run)",
            drillAvailable),
        .timeLimit(.minutes(2)))
    func acknowledgedFixesSurviveSIGKILL() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("drill.sqlite")
        let (acknowledged, killedBy) = try await onOwnThread { try Self.acknowledgedUntilKilled(path) }
        #expect(killedBy == SIGKILL)
        try #require(acknowledged.count >= 200, "the drill stopped before 200 acknowledgements")
        #expect(acknowledged == (1...acknowledged.count).map(Int64.init))

        let store = try WaymarkStore(path: path, logger: quietLogger)
        let (integrity, spatialIndex) = try await store.database.writeWithoutTransaction { db in
            (
                try String.fetchAll(db, sql: "PRAGMA integrity_check"),
                try Int.fetchOne(db, sql: "SELECT CheckSpatialIndex('regions', 'geometry')")
            )
        }
        #expect(integrity == ["ok"])
        #expect(spatialIndex == 1)
        let stored = try await store.database.read { db in
            try Set(Int64.fetchAll(db, sql: "SELECT id FROM fixes"))
        }
        let missing = acknowledged.filter { !stored.contains($0) }
        #expect(missing.isEmpty, "acknowledged but lost: \(missing.prefix(10))")
        // At most the fix being written when the kill came is there unacknowledged.
        #expect(stored.count <= acknowledged.count + 1)
        // And each is the fix the drill wrote, field for field.
        try store.history(HistoryQuery(kinds: [.fix], limit: acknowledged.count)) { item in
            guard case .fix(let fix) = item else { return }
            #expect(fix.fix == HistoryWriterDrill.fix(Int(fix.id - 1)))
            #expect(fix.source == "drill")
        }
    }

    /// Runs the drill, reads acknowledgements until 200 have arrived, kills it mid-write, and
    /// returns every id it acknowledged and the signal that ended it (nil: it exited). Blocks
    /// while the child works: call it on a thread of its own (`onOwnThread`), never on the pool.
    static func acknowledgedUntilKilled(_ path: String) throws -> (acknowledged: [Int64], signal: Int32?) {
        let process = Process()
        process.executableURL = ProjectPaths.waymarkExecutable
        process.arguments = ["debug", "write-fixes", "--db", path, "--count", "1000000"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()

        // Read acknowledgements until 200 have arrived, then kill mid-write.
        var acknowledged: [Int64] = []
        var pending = Data()
        let reader = out.fileHandleForReading
        while acknowledged.count < 200 {
            let chunk = reader.availableData
            if chunk.isEmpty { break }  // the child exited early: the caller's expectations say why
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if let id = Int64(line) { acknowledged.append(id) }
            }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // Ids acknowledged between our last read and the kill count too.
        pending.append(reader.readDataToEndOfFile())
        for line in String(decoding: pending, as: UTF8.self).split(separator: "\n") {
            if let id = Int64(line) { acknowledged.append(id) }
        }
        return (acknowledged, process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil)
    }
}
