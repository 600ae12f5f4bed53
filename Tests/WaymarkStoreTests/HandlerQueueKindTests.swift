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
}
