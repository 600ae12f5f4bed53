import Testing
import WaymarkCore
import WaymarkDelivery
import WaymarkOutputs

/// How a batch is spread over lanes and what the first lane that does not finish makes of it.
@Suite struct DeliveryBatchTests {
    static func event(_ sequence: Int64, _ device: String) -> OutputEvent {
        OutputEvent(sequence: sequence, device: device, time: Timestamp(secondsSince1970: Double(sequence)), kind: .region, record: "{}")
    }

    @Test func eachDeviceStaysInOneLaneInOrder() {
        let devices = (0..<40).map { "phone-\($0)" }
        let events = (0..<400).map { Self.event(Int64($0), devices[$0 % devices.count]) }
        let lanes = DeliveryBatch.lanes(events)
        #expect(lanes.count <= DeliveryLanes.count)
        #expect(lanes.allSatisfy { !$0.isEmpty })
        #expect(lanes.flatMap { $0 }.map(\.sequence).sorted() == events.map(\.sequence))
        for device in devices {
            let holding = lanes.filter { $0.contains { $0.device == device } }
            #expect(holding.count == 1, "\(device)")
            let order = holding.first?.filter { $0.device == device }.map(\.sequence) ?? []
            #expect(order == order.sorted(), "\(device)")
        }
    }

    /// Lanes ending in turn: whether each asks for the others to be cancelled, and the batch's end.
    static func ending(_ lanes: [DeliveryBatch.LaneEnd]) -> (cancels: [Bool], end: DeliveryBatch.End) {
        var batch = DeliveryBatch()
        let cancels = lanes.map { batch.laneEnded($0) }
        return (cancels, batch.end)
    }

    /// The first lane that does not finish decides, and cancels the others; lanes cancelled
    /// afterwards end as stopped and change nothing.
    @Test(arguments: [
        ([DeliveryBatch.LaneEnd.finished, .finished], [false, false], DeliveryBatch.End.commit),
        ([.finished, .disable("410"), .stop], [false, true, false], .disable("410")),
        ([.stop, .disable("410")], [true, false], .release),
    ])
    func theFirstLaneThatDoesNotFinishDecides(lanes: [DeliveryBatch.LaneEnd], cancels: [Bool], end: DeliveryBatch.End) {
        let result = Self.ending(lanes)
        #expect(result.cancels == cancels)
        #expect(result.end == end)
    }
}
