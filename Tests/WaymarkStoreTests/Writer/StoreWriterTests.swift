import Foundation
import GRDB
import Testing
import WaymarkCore
import WaymarkRegions
import WaymarkTestSupport

@testable import WaymarkStore

/// The group-committing writer against a real SpatiaLite file.
@Suite(.timeLimit(.minutes(2))) struct StoreWriterTests {
    @Test func quickSubmissionsShareFarFewerCommitsAndLandInOrder() async throws {
        let folder = try TemporaryDirectory()
        let store = try WriterSample.fileStore(folder)
        let writer = StoreWriter(store: store, logger: quietLogger)
        let acknowledged = Collected<(Int, [Int64])>()
        let count = 10_000
        for n in 0..<count {
            await writer.enqueue([WriterSample.fix(n)], durability: .recorded) { result in
                acknowledged.append((n, (try? result.get()) ?? []))
            }
        }
        await writer.flush()
        let statistics = writer.statistics
        #expect(statistics.writes == count)
        #expect(statistics.commits * 10 <= count, "\(statistics.commits) commits for \(count) submissions")
        #expect(statistics.largestGroup > 10)
        #expect(statistics.failures == 0)

        let ids = acknowledged.all.flatMap(\.1)
        #expect(acknowledged.all.map(\.0) == Array(0..<count))
        #expect(ids.count == count)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "ids ascend in submission order")
        var stored: [StoredFix] = []
        try store.history(HistoryQuery(kinds: [.fix])) { if case .fix(let fix) = $0 { stored.append(fix) } }
        #expect(stored.map(\.id) == ids)
        #expect(stored.map(\.fix) == (0..<count).map(HistoryWriterDrill.fix))
        await writer.shutdown()
    }

    @Test func aRefusedWriteFailsOnlyItsOwnSubmissionAndTheGroupCommits() async throws {
        let folder = try TemporaryDirectory()
        let store = try WriterSample.fileStore(folder)
        // A long delay: nothing is taken until the flush, so all six share one transaction.
        let writer = StoreWriter(store: store, logger: quietLogger, maxDelay: .seconds(60))
        let gap = HistoryWrite.gap(time: HistorySample.at(1), reason: "no-fix", source: "writer-test")
        let submissions: [[HistoryWrite]] = [
            [WriterSample.fix(0)],
            [WriterSample.untimed],
            [WriterSample.fix(1), WriterSample.fix(2)],
            [WriterSample.fix(3), WriterSample.latitude91],
            [gap, .event(HistorySample.enter("SAMO", at: 1))],
            [WriterSample.fix(4)],
        ]
        let results = Collected<(Int, Result<[Int64], StoreError>)>()
        for (index, writes) in submissions.enumerated() {
            await writer.enqueue(writes, durability: .recorded) { results.append((index, $0)) }
        }
        await writer.flush()
        #expect(writer.statistics.commits == 1)
        #expect(writer.statistics.failures == 2)

        let outcome = results.all.sorted { $0.0 < $1.0 }.map(\.1)
        try #require(outcome.count == submissions.count)
        for index in [0, 2, 4, 5] { #expect((try? outcome[index].get()) != nil, "submission \(index) commits") }
        guard case .failure(let untimed) = outcome[1], case .failure(let latitude) = outcome[3] else {
            Issue.record("the untimed fix and latitude 91 must fail: \(outcome)")
            return
        }
        #expect(untimed.code == .invalidRecord)
        #expect(untimed.message.contains("write 1 of 1 (an untimed fix)"), "\(untimed.message)")
        #expect(latitude.code == .invalidRecord)
        #expect(latitude.message.contains("write 2 of 2"), "\(latitude.message)")
        #expect(latitude.message.contains("latitude"), "\(latitude.message)")
        #expect(latitude.path == store.path)

        // The refused submission's first fix (3) was rolled back with it; its neighbours are there.
        let fixes = try store.fixRows()
        #expect(fixes.map(\.time) == [0, 1, 2, 4].map { HistoryWriterDrill.fix($0).time!.nanosecondsSince1970 })
        #expect(try store.historyCountList() == [4, 1, 1])
    }

    @Test func completionsRunOnTheWriterThreadInSubmissionOrder() async throws {
        let folder = try TemporaryDirectory()
        let store = try WriterSample.fileStore(folder)
        // Small groups and a small queue: many commits, and submitters park.
        let writer = StoreWriter(store: store, logger: quietLogger, maxBatch: 7, maxDelay: .zero, queueCapacity: 16)
        let calls = Collected<(index: Int, ids: [Int64], thread: pthread_t)>()
        var expectedWrites = 0
        for index in 0..<2_000 {
            let writes = (0..<(1 + index % 3)).map { WriterSample.fix(expectedWrites + $0) }
            expectedWrites += writes.count
            await writer.enqueue(writes, durability: index % 50 == 0 ? .durable : .recorded) { result in
                calls.append((index, (try? result.get()) ?? [], pthread_self()))
            }
        }
        await writer.shutdown()
        #expect(calls.all.map(\.index) == Array(0..<2_000))
        let writerThread = try #require(writer.thread.state.withLock { $0.thread })
        #expect(calls.all.allSatisfy { pthread_equal($0.thread, writerThread) != 0 }, "\(Set(calls.all.map(\.thread)))")
        let ids = calls.all.flatMap(\.ids)
        #expect(ids.count == expectedWrites)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
        #expect(writer.statistics.commits > 1_000 / 7)
        #expect(writer.statistics.largestGroup <= 7)
    }

    @Test func durableSubmissionsCommitWithSynchronousFull() async throws {
        let folder = try TemporaryDirectory()
        let store = try WriterSample.fileStore(folder)
        let commits = Collected<WriterCommitRecord>()
        let writer = StoreWriter(
            store: store, logger: quietLogger, maxBatch: 4_096, maxDelay: .seconds(60), queueCapacity: 65_536,
            onCommit: { commits.append($0) })
        await writer.enqueue([WriterSample.fix(0)], durability: .recorded)
        await writer.enqueue([WriterSample.fix(1)], durability: .recorded)
        await writer.flush()
        // A recorded fix waits (60 s delay) until the durable event arrives; they commit together.
        await writer.enqueue([WriterSample.fix(2)], durability: .recorded)
        _ = try await writer.write([.event(HistorySample.enter("SAMO", at: 2))], durability: .durable)
        _ = try await writer.write([.event(HistorySample.enter("SAMO", at: 3))], durability: .durable)

        #expect(
            commits.all == [
                WriterCommitRecord(durabilities: [.recorded, .recorded], writes: 2, synchronous: 1),
                WriterCommitRecord(durabilities: [.recorded, .durable], writes: 2, synchronous: 2),
                WriterCommitRecord(durabilities: [.durable], writes: 1, synchronous: 2),
            ])
        #expect(writer.statistics.durableCommits == 2)
        // The writer connection is back at its resting level for the store's other writes.
        let resting = try await store.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(resting == 2)
        await writer.shutdown()
    }

    @Test func flushWaitsForEverythingBeforeItWithoutTheDelay() async throws {
        let folder = try TemporaryDirectory()
        let store = try WriterSample.fileStore(folder)
        let writer = StoreWriter(store: store, logger: quietLogger, maxDelay: .seconds(60))
        for n in 0..<300 { await writer.enqueue([WriterSample.fix(n)], durability: .recorded) }
        let start = ContinuousClock.now
        await writer.flush()
        #expect(ContinuousClock.now - start < .seconds(30))
        #expect(try store.historyCounts().fixes == 300)
        await writer.shutdown()
    }

    @Test func closeDrainsThenRefusesAndIsIdempotent() async throws {
        let folder = try TemporaryDirectory()
        let store = try WriterSample.fileStore(folder)
        let writer = StoreWriter(store: store, logger: quietLogger, maxDelay: .seconds(60))
        let results = Collected<Result<[Int64], StoreError>>()
        for n in 0..<500 { await writer.enqueue([WriterSample.fix(n)], durability: .recorded) { results.append($0) } }
        try await onOwnThread { writer.close() }
        #expect(results.all.count == 500)
        #expect(results.all.allSatisfy { (try? $0.get())?.count == 1 })
        #expect(try store.historyCounts().fixes == 500)

        // Closed: refused at once, on the submitting side, with a stable code.
        let refused = Collected<Result<[Int64], StoreError>>()
        await writer.enqueue([WriterSample.fix(500)], durability: .recorded) { refused.append($0) }
        guard case .failure(let error) = refused.all.first else {
            Issue.record("a submission after close must fail at once")
            return
        }
        #expect(error.code == .writerClosed)
        await #expect(throws: StoreError.self) { try await writer.write([WriterSample.fix(501)], durability: .durable) }
        await writer.flush()
        await writer.shutdown()
        try await onOwnThread { writer.close() }
        #expect(try store.historyCounts().fixes == 500)
        #expect(writer.statistics.failures == 2)
    }

    @Test func aFullQueueBlocksSubmitAndSuspendsEnqueueUntilThereIsRoom() async throws {
        let folder = try TemporaryDirectory()
        let store = try WriterSample.fileStore(folder)
        let writer = StoreWriter(store: store, logger: quietLogger, maxBatch: 4, maxDelay: .zero, queueCapacity: 4)
        // Hold the store's writer connection so the writer thread stalls in its first group.
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Task {
            try await onOwnThread { store.database.writeWithoutTransaction { _ in held.signal(); release.wait() } }
        }
        try await onOwnThread { held.wait() }
        await writer.enqueue([WriterSample.fix(0)], durability: .recorded)
        try await waitUntil { writer.waiting == 0 }  // taken: the writer thread is stuck on the database
        for n in 1...4 { await writer.enqueue([WriterSample.fix(n)], durability: .recorded) }

        let enqueued = Collected<Int>()
        let suspended = Task {
            await writer.enqueue([WriterSample.fix(5)], durability: .recorded)
            enqueued.append(5)
        }
        try await waitUntil { writer.waiting == 5 }
        let blocked = Task { try await onOwnThread { writer.submit([WriterSample.fix(6)], durability: .recorded); enqueued.append(6) } }
        try await waitUntil { writer.waiting == 6 }
        try await Task.sleep(for: .milliseconds(200))
        #expect(enqueued.all.isEmpty, "neither returns while the queue is full")

        release.signal()
        try await holder.value
        await suspended.value
        try await blocked.value
        await writer.flush()
        #expect(Set(enqueued.all) == [5, 6])
        #expect(try store.fixRows().map(\.time) == (0...6).map { HistoryWriterDrill.fix($0).time!.nanosecondsSince1970 })
        await writer.shutdown()
    }

    @Test func aFailedTransactionFailsItsWholeGroupAndTheWriterCarriesOn() async throws {
        let folder = try TemporaryDirectory()
        let store = try WriterSample.fileStore(folder)
        let writer = StoreWriter(store: store, logger: quietLogger, maxDelay: .seconds(60))
        // "Disk full": the writer connection may not grow the file.
        try await store.database.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
        let results = Collected<Result<[Int64], StoreError>>()
        for start in [0, 500, 1_000] {
            await writer.enqueue((start..<start + 500).map { WriterSample.fix($0) }, durability: .recorded) {
                results.append($0)
            }
        }
        await writer.flush()
        #expect(results.all.count == 3)
        for result in results.all {
            guard case .failure(let error) = result else {
                Issue.record("every submission of the failed group fails")
                continue
            }
            #expect(error.code == .database)
            #expect(error.message.contains("full"), "\(error.message)")
        }
        #expect(writer.statistics.failedGroups == 1)
        #expect(writer.statistics.failures == 3)

        try await store.database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA max_page_count = 1073741823") }
        let ids = try await writer.write([WriterSample.fix(7)], durability: .durable)
        #expect(ids.count == 1)
        #expect(try store.fixRows().map(\.time) == [HistoryWriterDrill.fix(7).time!.nanosecondsSince1970])
        await writer.shutdown()
    }

    @Test func regionStatesAndHandlerEventsCommitOrRollBackWithTheirSubmission() async throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.importRegions(Sample.all, replace: false)
        try store.saveHandler(name: "logger", registrationJSON: "{}", replace: false, at: HistorySample.at(0))
        let writer = StoreWriter(store: store, logger: quietLogger)
        let event = QueuedHandlerEvent.New(handler: "logger", time: HistorySample.at(5), kind: .region, record: #"{"kind":"region"}"#)
        let ids = try await writer.write(
            [
                .regionStates([SavedRegionState(identifier: "eiffel", inside: true, since: HistorySample.at(4))], at: HistorySample.at(5)),
                .handlerEvents([event, event], queuedAt: HistorySample.at(6)),
                .gap(time: HistorySample.at(7), reason: "disconnected", source: "writer-test"),
            ], durability: .durable)
        #expect(ids.count == 3)
        #expect(try store.unacknowledgedEvents(handler: "logger").map(\.id) == Array(ids.prefix(2)))
        #expect(try store.regionStates().map(\.identifier) == ["eiffel"])

        // An event for a handler that does not exist: refused, and the states saved with it go too.
        let ghost = QueuedHandlerEvent.New(handler: "ghost", time: HistorySample.at(8), kind: .region, record: "{}")
        await #expect(throws: StoreError.self) {
            try await writer.write(
                [
                    .regionStates([SavedRegionState(identifier: "islands", inside: true, since: nil)], at: HistorySample.at(8)),
                    .handlerEvents([ghost], queuedAt: HistorySample.at(8)),
                ], durability: .durable)
        }
        #expect(try store.regionStates().map(\.identifier) == ["eiffel"])
        await writer.shutdown()
    }
}

/// Polls `condition` every millisecond for up to ten seconds.
func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw CancellationError() }
        try await Task.sleep(for: .milliseconds(1))
    }
}

extension StoreWriter {
    /// Submissions queued or parked, not yet taken by the writer thread (tests only).
    var waiting: Int { thread.state.withLock { $0.queue.waitingCount } }
}
