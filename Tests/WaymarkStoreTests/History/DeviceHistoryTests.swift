import GRDB
import Testing
import WaymarkCore
import WaymarkRegions
@testable import WaymarkStore
import WaymarkTestSupport

/// Every row belongs to a device (v10-device-history): written through the store writer with the
/// submission's device, filtered on read, and region states kept apart per device.
@Suite struct DeviceHistoryTests {
    @Test func theWriterStampsEachSubmissionsDeviceAndHistoryFiltersByIt() async throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("w.sqlite"), logger: quietLogger)
        let writer = StoreWriter(store: store, logger: quietLogger)
        let fix = Fix(time: HistorySample.at(1), coordinate: Coordinate(latitude: 47.1, longitude: 8.5))
        let event = StoredEvent(time: HistorySample.at(1), kind: .region, record: #"{"kind":"region"}"#)
        _ = try await writer.write([.fix(fix, source: "owntracks"), .event(event)], device: "phone", durability: .durable)
        _ = try await writer.write([.fix(fix, source: "gpsd")], durability: .recorded)
        _ = try await writer.write([.gap(time: HistorySample.at(2), reason: "silent", source: "osmand")], device: "tracker", durability: .recorded)
        await writer.shutdown()

        let phone = try store.collect(HistoryQuery(devices: ["phone"])).map(\.jsonLine)
        #expect(phone == [
            #"{"kind":"fix","time":"\#(HistorySample.at(1).rfc3339)","latitude":47.1,"longitude":8.5,"source":"owntracks","device":"phone"}"#,
            #"{"kind":"region","device":"phone"}"#,
        ])
        #expect(try store.collect(HistoryQuery(devices: ["local"])).map(\.jsonLine).allSatisfy { $0.contains(#""device":"local""#) })
        #expect(try store.collect(HistoryQuery(devices: ["local"])).count == 1)
        #expect(try store.collect(HistoryQuery(devices: ["tracker", "phone"])).count == 3)
        #expect(try store.collect().count == 4)
        #expect(try store.collect(HistoryQuery(devices: [])).isEmpty)
    }

    @Test func regionStatesAreEachDevicesOwn() throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("w.sqlite"), logger: quietLogger)
        try store.importRegions(Sample.all, replace: false)
        let region = Sample.eiffel.identifier
        try store.saveRegionStates([SavedRegionState(identifier: region, inside: true, since: HistorySample.at(1))], at: HistorySample.at(1), device: "phone")
        try store.saveRegionStates([SavedRegionState(identifier: region, inside: false, since: HistorySample.at(2))], at: HistorySample.at(2))
        #expect(try store.regionState(identifier: region, device: "phone")?.inside == true)
        #expect(try store.regionState(identifier: region)?.inside == false)
        #expect(try store.regionStates(device: "tracker").isEmpty)
        // A region's new geometry resets every device's state of it (the trigger made again by v10).
        try store.database.write { db in try db.execute(sql: "UPDATE regions SET radius = 150 WHERE identifier = ?", arguments: [region]) }
        #expect(try store.regionStates(device: "phone").isEmpty)
        #expect(try store.regionStates().isEmpty)
    }
}
