import GRDB
import Testing
import WaymarkCore
import WaymarkStore
import WaymarkTestSupport

/// A queued handler event's kind is its launch reason: typed on the way in and checked on the way
/// out, so a row no Waymark version wrote is an error naming it, not a handler woken for nonsense.
@Suite struct HandlerQueueKindTests {
    @Test func kindsRoundTripAndAnUnknownOneIsNamed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("w.sqlite")
        let store = try WaymarkStore(path: path, logger: quietLogger)
        try store.saveHandler(name: "logger", registrationJSON: "{}", replace: false, at: HistorySample.at(0))
        let ids = try store.enqueueHandlerEvents(
            [.init(handler: "logger", time: HistorySample.at(1), kind: .significantChange, record: "{}")], at: HistorySample.at(2))
        #expect(try store.unacknowledgedEvents(handler: "logger").map(\.kind) == [.significantChange])

        let other = try DatabaseQueue(path: path)
        try other.write { try $0.execute(sql: "UPDATE handler_events SET kind = 'teleport' WHERE id = ?", arguments: [ids[0]]) }
        let error = #expect(throws: StoreError.self) { try store.unacknowledgedEvents(handler: "logger") }
        #expect(error?.message.contains("handler event \(ids[0]): unknown kind 'teleport'") == true)
    }

    /// A delivery round commits the acknowledgements waiting and counts the attempts of the
    /// events about to be sent in one transaction; a repeated or foreign acknowledgement
    /// changes nothing.
    @Test func aDeliveryRoundAcknowledgesAndCountsAttemptsTogether() throws {
        let directory = try TemporaryDirectory()
        let store = try WaymarkStore(path: directory.path("w.sqlite"), logger: quietLogger)
        for name in ["a", "b"] {
            try store.saveHandler(name: name, registrationJSON: "{}", replace: false, at: HistorySample.at(0))
        }
        let ids = try store.enqueueHandlerEvents(
            [1.0, 2, 3].map { .init(handler: "a", time: HistorySample.at($0), kind: .location, record: "{}") }, at: HistorySample.at(4))
        let acknowledged = try store.recordDeliveryRound(
            acknowledging: [
                HandlerAcknowledgement(handler: "a", id: ids[0], time: HistorySample.at(5)),
                HandlerAcknowledgement(handler: "a", id: ids[0], time: HistorySample.at(6)),  // a repeat
                HandlerAcknowledgement(handler: "b", id: ids[1], time: HistorySample.at(6)),  // not b's event
            ],
            delivering: [ids[1], ids[2], ids[2]])
        #expect(acknowledged == 1)
        let queue = try store.unacknowledgedEvents(handler: "a")
        #expect(queue.map(\.id) == [ids[1], ids[2]])
        // Queuing counted each event's first attempt; the round counted one more and two more.
        #expect(queue.map(\.attempts) == [2, 3])
        #expect(try store.newestHandlerEventID() == ids[2])
        #expect(try store.recordDeliveryRound(acknowledging: [], delivering: []) == 0)
    }
}
