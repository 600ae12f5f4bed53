import WaymarkCore
import WaymarkRegions
import WaymarkSources

/// The regions an ingest node sends phones as OwnTracks waypoints (docs/devices.md, "Regions on
/// the phone"): each device is answered `setWaypoints` once per version of the regions, as the
/// single daemon answers it, then `[]`. Per node: behind several ingest nodes a phone may be
/// sent a version once by each, which the app takes as the same regions again.
actor WaypointsBoard {
    private let database: FleetDatabase
    private var version: Int64 = -1
    private var reply = OwnTracksReply.empty
    private var sentTo: Set<String> = []

    init(database: FleetDatabase) {
        self.database = database
    }

    var currentVersion: Int64 { version }

    /// Reloads if the database holds a newer version; returns the version now sent.
    @discardableResult
    func refresh() async throws -> Int64 {
        guard try await database.regionsVersion() != version else { return version }
        let (regions, importedAt, newVersion) = try await database.regions()
        reply = regions.isEmpty ? OwnTracksReply.empty
            : OwnTracksReply.setWaypoints(regions: regions) { importedAt[$0.identifier] ?? Timestamp(nanosecondsSince1970: 0) }
        version = newVersion
        sentTo.removeAll()
        return version
    }

    /// The answer for `device`: the waypoints the first time for this version, else `[]`.
    func reply(for device: String, after messages: [OwnTracksMessage]) -> String {
        sentTo.insert(device).inserted ? reply : OwnTracksReply.empty
    }
}
