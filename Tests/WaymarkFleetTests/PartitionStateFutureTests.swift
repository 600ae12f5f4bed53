import Testing
import WaymarkCore
import WaymarkPipeline

@testable import WaymarkFleet

/// Issue 48, finding 8, in a fleet worker: a fix dated 2200 (judged against the moment the bus
/// took it) is neither run nor stored, as the single daemon drops it, and the device's later
/// fixes give the single engine's events.
@Suite struct PartitionStateFutureTests {
    @Test func aFixFromTheFutureIsDroppedAndTheRestGiveTheSingleEnginesEvents() throws {
        let inputs = try PartitionStateTests.inputs(device: "a")
        let lastTime = try #require(inputs.last.map { Timestamp(nanosecondsSince1970: fixTime($0)) })
        // Every fix queued a moment after the last one was measured: the real ones are in the past.
        let queued = lastTime.adding(seconds: 1)
        let future = FixPayload(device: "a", fix: Fix(time: Timestamp(rfc3339: "2200-01-01T00:00:00Z")!, coordinate: Coordinate(latitude: 47, longitude: 8)), time: Timestamp(rfc3339: "2200-01-01T00:00:00Z")!)
        var withFuture = [PartitionState.Input(sequence: 1, payload: future, queuedAt: queued)]
        for input in inputs {
            guard case .fix(let payload) = input.payload else { continue }
            withFuture.append(PartitionState.Input(sequence: input.sequence + 1, payload: payload, queuedAt: queued))
        }
        var database = PartitionStateTests.Database()
        var state = PartitionState(monitors: try PartitionStateTests.monitors(), regionsVersion: 1)
        state.admit("a", from: database.resume("a"))
        let batch = state.apply(withFuture)
        database.write(batch)
        #expect(batch.fixes.count == inputs.count, "the fix from the future is not stored")
        #expect(!batch.fixes.contains { $0.sequence == 1 })
        #expect(batch.lastSequence["a"] == UInt64(inputs.count + 1))
        #expect(database.records("a") == (try PartitionStateTests.singleEngine()))
    }

    private func fixTime(_ input: PartitionState.Input) -> Int64 {
        guard case .fix(let payload) = input.payload else { return 0 }
        return payload.t
    }
}
