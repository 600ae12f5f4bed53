import Foundation
import GRDB
import Testing
import WaymarkCore
import WaymarkOutputs
import WaymarkRegions
import WaymarkTestSupport

@testable import WaymarkStore

/// What outputs that publish positions and presence read from the store (v13-output-locations).
@Suite struct OutputLocationStoreTests {
    static func fix(_ seconds: Double, accuracy: Double? = 3) -> Fix {
        Fix(time: Timestamp(secondsSince1970: seconds), coordinate: Coordinate(latitude: 47, longitude: 8 + seconds / 1000), horizontalAccuracy: accuracy)
    }

    @Test func aVersion12OutputKeepsItsDeadLettersAndStartsAtTheNewestFix() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("v12.sqlite")
        do {
            let pool = try DatabasePool(path: path, configuration: WaymarkStore.configuration(spatialiteModule: "mod_spatialite", logger: quietLogger))
            _ = try pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "SELECT InitSpatialMetadata(1)") }
            try WaymarkStore.migrator.migrate(pool, upTo: "v12-outputs")
            try pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO fixes (time_ns, latitude, longitude, source, geometry) VALUES (1, 47, 8, 's', MakePoint(8, 47, 4326));
                        INSERT INTO fixes (time_ns, latitude, longitude, source, geometry) VALUES (2, 47, 8, 's', MakePoint(8, 47, 4326));
                        INSERT INTO outputs (name, kind, format, target, secret, filter, keep_seconds, delivered_through, created_ns)
                        VALUES ('ha', 'mqtt', 'owntracks', 'mqtt://h/owntracks', '-', '{"regions":[],"devices":[],"kinds":["region"]}', 60, 7, 0);
                        INSERT INTO output_dead_letters (output, event_id, failed_ns, error) VALUES ('ha', 5, 1, 'down');
                        """)
            }
        }
        let store = try WaymarkStore(path: path, logger: quietLogger)
        let output = try #require(try store.output(named: "ha"))
        #expect(output.format == .ownTracks && output.deliveredThrough == 7)
        #expect(output.locationSeconds == Output.defaultLocationSeconds && output.locationsThrough == 2)
        #expect(try store.deadLetters(output: "ha").map(\.sequence) == [5])
        // The new format is allowed now; the old CHECKs still hold.
        _ = try store.addOutput(Output(name: "hass", kind: .mqtt(url: "mqtt://h/waymark"), format: .homeAssistant, secret: "-", createdAt: .init(secondsSince1970: 0)))
        #expect(throws: DatabaseError.self) {
            try store.database.write { try $0.execute(sql: "UPDATE outputs SET location_seconds = -1 WHERE name = 'hass'") }
        }
    }

    @Test func fixesAfterTheCursorAndADevicesFixAtAnInstant() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        let added = try store.addOutput(Output(name: "ot", kind: .mqtt(url: "mqtt://h/ot"), format: .ownTracks, secret: "-", createdAt: .init(secondsSince1970: 0)))
        #expect(added.locationsThrough == 0)
        let ids = try store.recordFixes([Self.fix(100), Self.fix(110, accuracy: nil)], source: "s", device: "phone")
        _ = try store.recordFix(Self.fix(105), source: "s", device: "tracker")
        let fixes = try store.outputFixes(after: 0, limit: 10)
        #expect(fixes.map(\.device) == ["phone", "phone", "tracker"] && fixes[0].accuracy == 3 && fixes[1].accuracy == nil)
        #expect(try store.outputFixes(after: ids[0], limit: 1).map(\.sequence) == [ids[1]])
        #expect(try store.fix(of: "phone", atOrBefore: Timestamp(secondsSince1970: 109))?.sequence == ids[0])
        #expect(try store.fix(of: "phone", atOrBefore: Timestamp(secondsSince1970: 99)) == nil)
        try store.setOutputLocationCursor("ot", through: ids[1])
        try store.setOutputLocationCursor("ot", through: 1)  // never backwards
        #expect(try store.output(named: "ot")?.locationsThrough == ids[1])
        #expect(try store.newestFixID() == ids[1] + 1)
    }

    @Test func whoIsInsideARegion() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.importRegions(Sample.all, replace: false)
        let home = Sample.all[0].identifier
        let time = Timestamp(secondsSince1970: 0)
        try store.saveRegionStates([SavedRegionState(identifier: home, inside: true, since: time)], at: time, device: "tracker")
        try store.saveRegionStates([SavedRegionState(identifier: home, inside: true, since: time)], at: time, device: "phone")
        try store.saveRegionStates([SavedRegionState(identifier: home, inside: false, since: time)], at: time, device: "bike")
        #expect(try store.devicesInside(region: home) == ["phone", "tracker"])
        #expect(try store.devicesInside(region: "nowhere").isEmpty)
        #expect(try store.presenceRegions().map(\.identifier) == Sample.all.map(\.identifier).sorted())
    }
}
