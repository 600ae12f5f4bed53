import Foundation
import Logging
import WaymarkCore
import WaymarkRegions
import WaymarkTestSupport

@testable import WaymarkStore

/// A `LogHandler` that keeps messages, so tests can see what the store reported.
final class RecordingLogHandler: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.withLock { recorded.append(event.message.description) }
    }

    var messages: [String] { lock.withLock { recorded } }

    static func logger() -> (Logger, RecordingLogHandler) {
        let handler = RecordingLogHandler()
        return (Logger(label: "waymark.store.test", factory: { _ in handler }), handler)
    }
}

/// A logger for tests that do not look at logs.
let quietLogger = Logger(label: "waymark.store.test", factory: { _ in SwiftLogNoOpLogHandler() })

/// A closed, counter-clockwise axis-aligned ring.
func rectangle(south: Double, west: Double, north: Double, east: Double) -> [Coordinate] {
    [
        Coordinate(latitude: south, longitude: west), Coordinate(latitude: south, longitude: east),
        Coordinate(latitude: north, longitude: east), Coordinate(latitude: north, longitude: west),
        Coordinate(latitude: south, longitude: west),
    ]
}

enum Sample {
    /// A 1°×1° square near Frankfurt with a 0.2°×0.2° hole in the middle, and JSON properties.
    static let parkWithPond = Region(
        identifier: "park-with-pond",
        shape: .polygons([
            Polygon(
                exterior: rectangle(south: 50, west: 8, north: 51, east: 9),
                holes: [rectangle(south: 50.4, west: 8.4, north: 50.6, east: 8.6)])
        ]),
        propertiesJSON: #"{"name":"Park \"mit\" Teich","tags":["a","b"],"area_km2":7.5e3,"open":true}"#)

    /// Two disjoint squares, with coordinates that are not short decimals.
    static let islands = Region(
        identifier: "islands",
        shape: .polygons([
            Polygon(exterior: rectangle(south: 40.712776, west: -74.005974, north: 40.7 + 0.1 / 3, east: -73.9 - 0.2 / 7)),
            Polygon(exterior: rectangle(south: 41, west: -74, north: 41.5, east: -73.5)),
        ]))

    /// A 100 m circle around the Eiffel Tower.
    static let eiffel = Region(
        identifier: "eiffel",
        shape: .circle(center: Coordinate(latitude: 48.858_370, longitude: 2.294_481), radius: 100),
        propertiesJSON: #"{"kind":"landmark"}"#)

    /// The classic bow-tie: its edges cross at (0.5, 0.5).
    static let bowTie = Region(
        identifier: "bow-tie",
        shape: .polygons([
            Polygon(exterior: [
                Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 1),
                Coordinate(latitude: 0, longitude: 1), Coordinate(latitude: 1, longitude: 0),
                Coordinate(latitude: 0, longitude: 0),
            ])
        ]))

    static let all = [parkWithPond, islands, eiffel]
}

/// Runs `/usr/bin/spatialite FILE SQL` and returns its result.
func spatialiteCLI(_ path: String, _ sql: String) async throws -> ProcessResult {
    try await runProcess(URL(fileURLWithPath: "/usr/bin/spatialite"), [path, sql])
}

/// Every schema migration, in the order a new store applies them (written out, so a migration
/// added or reordered by mistake fails the migration tests).
let allMigrations = ["v1-regions", "v2-history", "v3-region-state", "v4-beacon-regions", "v5-handlers", "v6-energy", "v7-handler-sessions", "v8-fixes-append", "v9-devices", "v10-device-history", "v11-regions-established", "v12-outputs", "v13-output-locations", "v14-handler-processes", "v15-service-marks", "v16-force-quit-boot", "v17-imports", "v18-timeline-service-marks", "v19-timeline", "v20-phone-energy"]
