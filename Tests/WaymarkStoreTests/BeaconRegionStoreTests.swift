import GRDB
import Testing
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkTestSupport

@testable import WaymarkStore

/// Beacon regions beside geographic ones (`v4-beacon-regions`): one identifier namespace, the
/// schema's own checks, and their state across restarts.
@Suite struct BeaconRegionStoreTests {
    static let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

    static func decode(_ text: String) throws -> [Region] {
        try GeoJSONRegionDecoder().decode(Array(text.utf8), file: "beacons.geojson").map(\.region)
    }

    static let hut = try! decode(
        #"{"type":"Feature","id":"hut","geometry":null,"properties":{"beacon":{"uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":7},"exitTimeout":45,"notifyOnEntry":false}}"#
    )[0]

    @Test func beaconRegionsRoundTripAndListInIdentifierOrderWithTheOthers() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        let post = Region(identifier: "f-post", shape: .beacon(BeaconIdentity(uuid: Self.uuid, major: 0, minor: 65535)))
        try store.importRegions([Self.hut, post] + Sample.all, replace: false)
        #expect(try store.regions().map(\.identifier) == ["eiffel", "f-post", "hut", "islands", "park-with-pond"])
        #expect(try store.region(identifier: "hut") == Self.hut)
        #expect(Self.hut.options == RegionOptions(notifyOnEntry: false, exitTimeout: 45))
        #expect(try store.region(identifier: "f-post")?.beacon == BeaconIdentity(uuid: Self.uuid, major: 0, minor: 65535))
        #expect(try store.regionCount() == 5)
        let stored = try store.database.read { db in
            try Row.fetchOne(db, sql: "SELECT uuid, major, minor FROM beacon_regions WHERE identifier = 'hut'")
        }
        #expect(stored?["uuid"] == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        #expect(stored?["major"] == 7)
        #expect(stored?["minor"] as Int? == nil)
    }

    @Test func oneIdentifierNamespaceAcrossBothKinds() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.importRegions(Sample.all, replace: false)
        var clash = Self.hut
        clash.identifier = "eiffel"
        #expect { try store.importRegions([clash], replace: false) } throws: {
            ($0 as? StoreError)?.code == .duplicateIdentifier
        }
        // With replace, the circle becomes a beacon region; its geographic state goes with it.
        try store.saveRegionStates([SavedRegionState(identifier: "eiffel", inside: true, since: nil)], at: Timestamp(nanosecondsSince1970: 1))
        let report = try store.importRegions([clash], replace: true)
        #expect(report.replaced == ["eiffel"])
        #expect(try store.region(identifier: "eiffel")?.beacon != nil)
        #expect(try store.regionState(identifier: "eiffel") == nil)
        // …and back.
        try store.importRegions([Sample.eiffel], replace: true)
        #expect(try store.region(identifier: "eiffel") == Sample.eiffel)
        #expect(try store.regionCount() == 3)
        // The schema refuses a clash written behind the store's back too.
        #expect(throws: (any Error).self) {
            try store.database.write { db in
                try db.execute(
                    sql: "INSERT INTO beacon_regions (identifier, uuid, imported_at) VALUES ('islands', ?, 'now')",
                    arguments: [Self.uuid.description])
            }
        }
    }

    @Test(
        "the schema checks UUIDs, majors and minors",
        arguments: [
            "('x', 'e2c56db5-dffb-48d2-b060-d0f5a71096e0', NULL, NULL)",  // lower case
            "('x', 'E2C56DB5DFFB48D2B060D0F5A71096E0', NULL, NULL)",
            "('x', 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0', 65536, NULL)",
            "('x', 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0', NULL, -1)",
            "('x', 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0', 1.5, NULL)",
            "('', 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0', NULL, NULL)",
        ])
    func schemaChecks(values: String) throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        #expect(throws: (any Error).self) {
            try store.database.write { db in
                try db.execute(sql: "INSERT INTO beacon_regions (identifier, uuid, major, minor, imported_at) SELECT *, 'now' FROM (VALUES \(values))")
            }
        }
    }

    @Test func beaconStatesAreSavedWithTheLastSightingAndDroppedOnANewIdentity() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.importRegions([Self.hut, Sample.eiffel], replace: false)
        let t = Timestamp(nanosecondsSince1970: 5_000_000_000)
        let seen = Timestamp(nanosecondsSince1970: 9_000_000_000)
        try store.saveRegionStates([
            SavedRegionState(identifier: "hut", inside: true, since: t, lastSeen: seen),
            SavedRegionState(identifier: "eiffel", inside: false, since: t),
        ], at: seen)
        #expect(try store.regionStates() == [
            SavedRegionState(identifier: "eiffel", inside: false, since: t),
            SavedRegionState(identifier: "hut", inside: true, since: t, lastSeen: seen),
        ])
        // The same identity keeps its state; another major drops it; removal removes it.
        try store.importRegions([Self.hut], replace: true)
        #expect(try store.regionState(identifier: "hut")?.lastSeen == seen)
        var moved = Self.hut
        moved.shape = .beacon(BeaconIdentity(uuid: Self.uuid, major: 8))
        try store.importRegions([moved], replace: true)
        #expect(try store.regionState(identifier: "hut") == nil)
        try store.saveRegionStates([SavedRegionState(identifier: "hut", inside: false, since: t)], at: seen)
        #expect(try store.removeRegion(identifier: "hut"))
        #expect(try store.regionStates().map(\.identifier) == ["eiffel"])
    }
}
