import GRDB
import Logging
import Synchronization

// Committing one group: one immediate transaction on the store's writer connection, a
// savepoint per submission, one commit.

extension WriterThread {
    /// Commits `group` in one transaction and hands every submission its result, in order.
    ///
    /// The synchronous level is the strongest durability in the group (`Durability`). Each
    /// submission runs inside its own SAVEPOINT: a write the store refuses rolls back to it,
    /// fails that submission alone, and the rest of the group commits. A failure that ends the
    /// transaction (disk full, I/O error, or SQLite rolling the transaction back itself) fails
    /// every submission in the group with that error; the writer carries on with the next group.
    func commit(_ group: [WriterSubmission]) {
        var results = [Result<[Int64], StoreError>](repeating: .success([]), count: group.count)
        let writeCount = group.reduce(0) { $0 + $1.writes.count }
        if writeCount > 0 {
            let durability = group.lazy.filter { !$0.writes.isEmpty }.map(\.durability).max() ?? .recorded
            do {
                let synchronous = try store.writeHistory(
                    synchronous: durability.synchronous, doing: "committing a group of \(writeCount) history writes"
                ) { db in
                    let pages = autocheckpointToSet.exchange(0, ordering: .relaxed)
                    if pages > 0 { try db.execute(sql: "PRAGMA wal_autocheckpoint = \(pages)") }
                    for index in group.indices where !group[index].writes.isEmpty {
                        results[index] = try Self.apply(group[index].writes, device: group[index].device, db, path: store.path)
                    }
                    return onCommit == nil ? 0 : try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
                }
                count(group, results, writes: writeCount, durability: durability)
                onCommit?(
                    WriterCommitRecord(
                        durabilities: group.filter { !$0.writes.isEmpty }.map(\.durability), writes: writeCount,
                        synchronous: synchronous))
            } catch {
                let error = Self.groupError(error, submissions: group.count, writes: writeCount, store: store)
                logger.error(
                    "History group commit failed",
                    metadata: [
                        "writer.submissions": "\(group.count)", "writer.writes": "\(writeCount)",
                        "store.error.code": "\(error.code)", "store.error": "\(error.message)",
                    ])
                counters.failedGroups.add(1, ordering: .relaxed)
                results = group.map { $0.writes.isEmpty ? .success([]) : .failure(error) }
            }
        }
        for (submission, result) in zip(group, results) {
            if case .failure = result { counters.failures.add(1, ordering: .relaxed) }
            deliver(result, to: submission)
        }
    }

    private func count(
        _ group: [WriterSubmission], _ results: [Result<[Int64], StoreError>], writes: Int, durability: Durability
    ) {
        var committedWrites = 0
        var committedSubmissions = 0
        for (submission, result) in zip(group, results) {
            if case .success = result, !submission.writes.isEmpty {
                committedWrites += submission.writes.count
                committedSubmissions += 1
            }
        }
        counters.commits.add(1, ordering: .relaxed)
        if durability == .durable { counters.durableCommits.add(1, ordering: .relaxed) }
        counters.writes.add(committedWrites, ordering: .relaxed)
        counters.submissions.add(committedSubmissions, ordering: .relaxed)
        counters.noteGroup(of: writes)
    }

    /// Applies one submission inside its own savepoint. A refused write rolls the submission
    /// back and is returned as its failure; an error that leaves no transaction to go on with
    /// is thrown (the whole group fails).
    static func apply(_ writes: [HistoryWrite], device: String, _ db: Database, path: String?) throws -> Result<[Int64], StoreError> {
        try db.cachedStatement(sql: "SAVEPOINT waymark_submission").execute()
        var ids: [Int64] = []
        for (position, write) in writes.enumerated() {
            do {
                try apply(write, device: device, db, ids: &ids)
            } catch {
                guard isSubmissionError(error), db.isInsideTransaction else { throw error }
                try db.cachedStatement(sql: "ROLLBACK TO waymark_submission").execute()
                try db.cachedStatement(sql: "RELEASE waymark_submission").execute()
                return .failure(located(error, position: position, of: writes, path: path))
            }
        }
        try db.cachedStatement(sql: "RELEASE waymark_submission").execute()
        return .success(ids)
    }

    private static func apply(_ write: HistoryWrite, device: String, _ db: Database, ids: inout [Int64]) throws {
        switch write {
        case .fix(let fix, let source):
            ids.append(try WaymarkStore.insert(fix, source: source, device: device, db))
        case .gap(let time, let reason, let source):
            ids.append(try WaymarkStore.insertGap(time: time, reason: reason, source: source, device: device, db))
        case .event(let event):
            ids.append(try WaymarkStore.insert(event, device: device, db))
        case .regionStates(let states, let time):
            try WaymarkStore.saveRegionStates(states, at: time, device: device, db)
        case .regionsEstablished(let established):
            try WaymarkStore.saveRegionsEstablished(established, device: device, db)
        case .serviceMarks(let marks, let subscriber):
            try WaymarkStore.saveServiceMarks(marks, subscriber: subscriber, device: device, db)
        case .handlerEvents(let events, let queuedAt):
            for event in events {
                ids.append(
                    try WaymarkStore.insertHandlerEvent(
                        event.handler, time: event.time, kind: event.kind, record: event.record, queuedAt: queuedAt, device: device, db))
            }
        }
    }

    /// Errors that belong to the write that raised them: the store's own checks, and SQLite
    /// refusing a value (constraints, triggers' RAISE, type or size errors). Anything else (full
    /// disk, I/O, corruption, memory) is the group's.
    private static func isSubmissionError(_ error: any Error) -> Bool {
        if error is StoreError { return true }
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_CONSTRAINT, .SQLITE_MISMATCH, .SQLITE_TOOBIG, .SQLITE_RANGE, .SQLITE_ERROR]
            .contains(error.resultCode)
    }

    /// The error for a refused write, naming its place in the submission, e.g.
    /// `write 2 of 3 (a fix at 2024-01-01T00:00:05Z): the store refused it (CHECK constraint failed: …)`.
    private static func located(_ error: any Error, position: Int, of writes: [HistoryWrite], path: String?) -> StoreError {
        var located: StoreError
        if let error = error as? StoreError {
            located = error
        } else if let error = error as? DatabaseError, error.resultCode == .SQLITE_CONSTRAINT {
            located = StoreError(code: .invalidRecord, message: "the store refused it (\(WaymarkStore.describe(error)))")
        } else {
            located = StoreError(code: .database, message: WaymarkStore.describe(error))
        }
        located.message = "write \(position + 1) of \(writes.count) (\(writes[position].summary)): \(located.message)"
        if writes.count > 1 { located.message += "; none of this submission's \(writes.count) writes was recorded" }
        return path.map { located.naming($0) } ?? located
    }

    private static func groupError(_ error: any Error, submissions: Int, writes: Int, store: WaymarkStore) -> StoreError {
        var error = store.storeError(error, doing: "committing \(writes) history writes")
        error.message += " (the whole group of \(submissions) submissions failed; nothing in it was recorded)"
        return error
    }
}
