import Foundation
import Logging
import PostgresNIO
import Synchronization
import WaymarkCore
import WaymarkDelivery
import WaymarkOutputs

/// What the OwnTracks and Home Assistant formats look up, answered from the fleet's database.
/// Users are cached for a minute: positions ask for one per published fix.
final class FleetOutputLookups: OutputLookups {
    private let database: FleetDatabase
    private let users = Mutex<[String: (user: String, at: ContinuousClock.Instant)]>([:])

    init(database: FleetDatabase) {
        self.database = database
    }

    func user(of device: String) async -> String {
        if let cached = users.withLock({ $0[device] }), ContinuousClock.now - cached.at < .seconds(60) { return cached.user }
        guard let user = ((try? await database.device(named: device)) ?? nil)?.user else { return device }
        users.withLock { $0[device] = (user, .now) }
        return user
    }

    func fix(of device: String, atOrBefore time: Timestamp) async -> OutputFix? {
        do {
            return try await database.fix(of: device, atOrBefore: time)
        } catch {
            database.logger.error(
                "cannot read a device's fix for an output", metadata: ["device": "\(device)", "error": "\(FleetDatabase.describe(error))"])
            return nil
        }
    }

    func devicesInside(region: String) async throws -> [String] {
        try await database.devicesInside(region: region)
    }

    func presenceRegions() async throws -> [(identifier: String, name: String?, beacon: Bool)] {
        try await database.presenceRegions()
    }
}

extension FleetDatabase {
    /// The device's newest fix at or before `time`, within the day before it (the partitions
    /// searched; an event's fix is the one that made it).
    func fix(of device: String, atOrBefore time: Timestamp) async throws -> OutputFix? {
        let rows = try await client.query(
            """
            SELECT sequence, time, ST_Y(position), ST_X(position), accuracy, altitude, speed, course FROM fixes
            WHERE device = \(device) AND time <= \(time.date) AND time > \(time.date) - interval '1 day'
            ORDER BY time DESC, sequence DESC LIMIT 1
            """, logger: logger)
        for try await (sequence, at, latitude, longitude, accuracy, altitude, speed, course)
            in rows.decode((Int64, Date, Double, Double, Double?, Double?, Double?, Double?).self)
        {
            return OutputFix(
                sequence: sequence, device: device, time: Timestamp(date: at), coordinate: Coordinate(latitude: latitude, longitude: longitude),
                accuracy: accuracy, altitude: altitude, speed: speed, course: course)
        }
        return nil
    }

    /// The devices whose saved state is inside the region, sorted.
    func devicesInside(region: String) async throws -> [String] {
        var devices: [String] = []
        let rows = try await client.query("SELECT device FROM region_state WHERE region = \(region) AND inside ORDER BY device", logger: logger)
        for try await device in rows.decode(String.self) { devices.append(device) }
        return devices
    }

    /// Every region with its display name; a fleet has geographic regions only.
    func presenceRegions() async throws -> [(identifier: String, name: String?, beacon: Bool)] {
        var regions: [(identifier: String, name: String?, beacon: Bool)] = []
        let rows = try await client.query(
            "SELECT identifier, feature -> 'properties' ->> 'name' FROM regions ORDER BY identifier", logger: logger)
        for try await (identifier, name) in rows.decode((String, String?).self) { regions.append((identifier, name, false)) }
        return regions
    }
}
