import Foundation
import Logging
import WaymarkCore
import WaymarkGeoJSON
import WaymarkImportJob
import WaymarkPipeline
import WaymarkRegions
import WaymarkSources
import WaymarkStore
import WaymarkTestSupport

/// A fresh SpatiaLite store with the project's sample regions, and the sample ride as a file.
struct ImportRig {
    let folder: TemporaryDirectory
    let store: WaymarkStore
    let regions: [Region]
    static let ride = ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path
    static let regionFile = ProjectPaths.repositoryRoot.appendingPathComponent("Regions/lakeside.geojson").path

    init() throws {
        folder = try TemporaryDirectory(prefix: "waymark-import")
        store = try WaymarkStore(path: folder.path("waymark.sqlite"), logger: Logger(label: "test.import"))
        regions = try GeoJSONRegionLoader.load(paths: [Self.regionFile])
        try store.importRegions(regions, replace: false)
    }

    var importer: HistoryImporter { HistoryImporter(store: store, logger: Logger(label: "test.import")) }

    func run(_ paths: [String], device: String = "phone", deliver: Bool = false, reread: Bool = false, chunkSize: Int = 500) throws -> ImportOutcome {
        try importer.run(
            ImportRequest(paths: paths, device: device, deliver: deliver, reread: reread, chunkSize: chunkSize),
            pipeline: DevicePipeline(regions: regions))
    }

    /// The region events `waymark replay` computes for the fixes of `path`: the same pipeline, run directly.
    func replayedRecords(_ path: String) throws -> [String] {
        var pipeline = DevicePipeline(regions: regions)
        var records: [String] = []
        func keep(_ events: [LocationEvent]) {
            for event in events { if case .event(let record) = event.recording { records.append(record.record) } }
        }
        for fix in try GPXFixSource.fixes(atPath: path) { keep(pipeline.handle(.fix(fix)).events) }
        keep(pipeline.finish())
        return records
    }

    /// The stored events of `device`, in time order, as records.
    func storedRecords(device: String = "phone", kinds: Set<HistoryKind> = [.event]) throws -> [String] {
        var records: [String] = []
        try store.history(HistoryQuery(kinds: kinds, devices: [device])) { item in
            if case .event(let event) = item { records.append(event.record) }
        }
        return records
    }

    func fixCount(device: String = "phone") throws -> Int {
        var count = 0
        try store.history(HistoryQuery(kinds: [.fix], devices: [device])) { _ in count += 1 }
        return count
    }
}
