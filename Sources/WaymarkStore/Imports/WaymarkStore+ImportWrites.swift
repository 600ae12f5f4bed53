import GRDB
import WaymarkCore

/// What one chunk of an import file adds: its fixes and the events read with them (reported
/// visits and activities), and how far into the file the chunk ends.
public struct ImportChunk: Sendable {
    public var fixes: [Fix]
    public var events: [StoredEvent]
    /// The file's bytes read through the end of this chunk.
    public var bytesRead: Int64

    public init(fixes: [Fix] = [], events: [StoredEvent] = [], bytesRead: Int64 = 0) {
        self.fixes = fixes
        self.events = events
        self.bytesRead = bytesRead
    }

    public var isEmpty: Bool { fixes.isEmpty && events.isEmpty }
}

/// What a chunk's transaction did.
public struct ImportChunkOutcome: Sendable, Equatable {
    public var fixesAdded = 0
    public var fixesPresent = 0
    public var eventsAdded = 0

    public init() {}
}

extension WaymarkStore {
    /// Two positions closer than this in latitude and longitude (half of Google's 1e-7° unit,
    /// about 5 mm) at the same nanosecond are the same fix (docs/import.md, "Once").
    public static let importCoordinateTolerance = 5e-8

    /// Writes one chunk of file `file` of import `importID` in one transaction: every fix the
    /// device's history does not already hold (same time, same position within
    /// `importCoordinateTolerance`) is added with the import's id, every event not already held
    /// (same kind, time and record) likewise, and the import's and file's counters and bytes read
    /// move on with them. A chunk is all or nothing: a kill leaves whole chunks only.
    public func writeImportChunk(_ chunk: ImportChunk, importID: Int64, file: String, device: String) throws -> ImportChunkOutcome {
        try writeImports(doing: "writing \(chunk.fixes.count) imported fixes") { db in
            var outcome = ImportChunkOutcome()
            let probe = try db.cachedStatement(
                sql: """
                    SELECT 1 FROM fixes WHERE time_ns = ? AND device = ? AND abs(latitude - ?) < ? AND abs(longitude - ?) < ? LIMIT 1
                    """)
            let tolerance = Self.importCoordinateTolerance
            for fix in chunk.fixes {
                guard let time = fix.time else { continue }
                probe.setUncheckedArguments([time.nanosecondsSince1970, device, fix.coordinate.latitude, tolerance, fix.coordinate.longitude, tolerance])
                if try Int.fetchOne(probe) != nil {
                    outcome.fixesPresent += 1
                    continue
                }
                _ = try Self.insert(fix, source: "import", device: device, importID: importID, db)
                outcome.fixesAdded += 1
            }
            let eventProbe = try db.cachedStatement(
                sql: "SELECT 1 FROM events WHERE time_ns = ? AND device = ? AND kind = ? AND record = ? LIMIT 1")
            for event in chunk.events {
                eventProbe.setUncheckedArguments([event.time.nanosecondsSince1970, device, event.kind.rawValue, event.record])
                if try Int.fetchOne(eventProbe) != nil { continue }
                try Self.insertImported(event, importID: importID, quiet: true, device: device, db)
                outcome.eventsAdded += 1
            }
            try db.execute(
                sql: """
                    UPDATE import_files SET fixes_added = fixes_added + ?, fixes_present = fixes_present + ?, reported = reported + ?
                    WHERE import_id = ? AND name = ?
                    """,
                arguments: [outcome.fixesAdded, outcome.fixesPresent, outcome.eventsAdded, importID, file])
            try db.execute(
                sql: """
                    UPDATE imports SET fixes_added = fixes_added + ?, fixes_present = fixes_present + ?, reported = reported + ?,
                        bytes_read = bytes_read + ? WHERE id = ?
                    """,
                arguments: [outcome.fixesAdded, outcome.fixesPresent, outcome.eventsAdded, chunk.bytesRead, importID])
            return outcome
        }
    }

    /// Counts a file that was not read again (already imported whole) into import `importID`:
    /// its fixes as present, its bytes as read.
    public func countSkippedImportFile(importID: Int64, present: Int64, bytes: Int64) throws {
        try writeImports(doing: "counting an imported file") { db in
            try db.execute(
                sql: "UPDATE imports SET fixes_present = fixes_present + ?, bytes_read = bytes_read + ? WHERE id = ?",
                arguments: [present, bytes, importID])
        }
    }

    /// Up to `limit` of the fixes import `importID` added, in time order, after `position` (the
    /// last one's time and row id): the evaluation pass's next page. Columns are read by index
    /// straight from the statement: decoding rows by column name took most of the pass's time.
    public func importedFixes(
        importID: Int64, after position: (time: Timestamp, id: Int64)?, limit: Int
    ) throws -> [(id: Int64, fix: Fix)] {
        try readImports(doing: "reading import \(importID)'s fixes") { db in
            let after = position ?? (Timestamp(nanosecondsSince1970: .min), 0)
            let statement = try db.cachedStatement(
                sql: """
                    SELECT \(Self.directFixColumns)
                    FROM fixes WHERE time_ns >= ?1 AND import_id = ?3 AND (time_ns > ?1 OR id > ?2)
                    ORDER BY time_ns, id LIMIT ?4
                    """)
            return try Self.fixPage(statement, [after.time.nanosecondsSince1970, after.id, importID, limit], limit: limit)
        }
    }

    /// Forgets the events import `importID`'s pipeline computed (not the reported ones read from
    /// its files), so an interrupted evaluation starts again from its first fix.
    public func clearImportEvaluation(_ importID: Int64) throws {
        try writeImports(doing: "clearing import \(importID)'s events") { db in
            try db.execute(
                sql: "DELETE FROM events WHERE import_id = ? AND kind NOT IN ('reportedVisit', 'reportedActivity')",
                arguments: [importID])
            try db.execute(sql: "UPDATE imports SET events = 0, state = 'evaluating' WHERE id = ?", arguments: [importID])
        }
    }

    /// Writes events import `importID`'s pipeline computed, in one transaction; `quiet` ones are
    /// not delivered to outputs.
    public func writeImportEvents(_ events: [StoredEvent], importID: Int64, device: String, quiet: Bool) throws {
        guard !events.isEmpty else { return }
        try writeImports(doing: "writing \(events.count) imported events") { db in
            for event in events { try Self.insertImported(event, importID: importID, quiet: quiet, device: device, db) }
            try db.execute(sql: "UPDATE imports SET events = events + ? WHERE id = ?", arguments: [events.count, importID])
        }
    }

    static func insertImported(_ event: StoredEvent, importID: Int64, quiet: Bool, device: String, _ db: Database) throws {
        _ = try insert(event, device: device, importID: importID, quiet: quiet, db)
    }
}
