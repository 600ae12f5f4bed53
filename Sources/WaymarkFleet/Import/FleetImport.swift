import Logging
import WaymarkDevices
import WaymarkStore

/// `waymark fleet import --db FILE`: a single daemon's regions, devices, outputs and history moved
/// into the fleet's database (docs/fleet.md), so a deployment that outgrows one machine keeps its
/// regions, its devices' secrets (the devices go on sending as before), where its events go and
/// what they recorded. An output's consumer starts with the events of the moment it was defined:
/// the history imported is not sent again (the single daemon sent it).
/// The history of `local` (that machine's gpsd receiver) comes too, under its name.
public enum FleetImport {
    public struct Report: Sendable, Equatable {
        public var regions: Int
        public var devices: Int
        public var outputs: Int
        public var fixes: Int
        public var events: Int
    }

    public static func importStore(at path: String, into database: FleetDatabase, logger: Logger) async throws -> Report {
        // Reading a SQLite file blocks: done on the store's own threads, not the cooperative pool.
        let store = try await WaymarkStore.open(path: path, logger: logger)
        let (regions, devices, outputs) = try await store.offPool { store in (try store.regions(), try store.devices(), try store.outputs()) }
        if !regions.isEmpty { try await database.importRegions(regions) }
        // `local` is that machine's own gpsd receiver: not a device of the fleet.
        let networked = devices.filter { $0.name != Device.localName }
        for device in networked { try await database.save(device) }
        for output in outputs { try await database.save(output) }
        let history = try await importHistory(from: store, into: database)
        return Report(regions: regions.count, devices: networked.count, outputs: outputs.count, fixes: history.fixes, events: history.events)
    }
}
