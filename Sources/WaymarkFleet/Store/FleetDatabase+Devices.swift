import Foundation
import PostgresNIO
import WaymarkCore
import WaymarkDevices

extension FleetDatabase {
    public func device(named name: String) async throws -> Device? {
        try await firstDevice(try await client.query("\(unescaped: Self.deviceColumns) WHERE name = \(name)", logger: logger))
    }

    public func device(withSecret hash: DeviceSecret.Hash) async throws -> Device? {
        let bytes = ByteBuffer(bytes: hash.bytes)
        return try await firstDevice(try await client.query("\(unescaped: Self.deviceColumns) WHERE secret_hash = \(bytes)", logger: logger))
    }

    /// Adds `device`, or replaces the one of its name (`fleet import`).
    public func save(_ device: Device) async throws {
        let hash = device.secretHash.map { ByteBuffer(bytes: $0.bytes) }
        try await client.query(
            """
            INSERT INTO devices (name, "user", secret_hash, secret_hint, created_at)
            VALUES (\(device.name), \(device.user), \(hash), \(device.secretHint), \(device.createdAt.date))
            ON CONFLICT (name) DO UPDATE SET "user" = excluded."user", secret_hash = excluded.secret_hash,
                secret_hint = excluded.secret_hint
            """, logger: logger)
    }

    private static let deviceColumns = "SELECT name, \"user\", secret_hash, secret_hint, created_at FROM devices"

    private func firstDevice(_ rows: PostgresRowSequence) async throws -> Device? {
        for try await (name, user, hash, hint, created) in rows.decode((String, String, ByteBuffer?, String?, Date).self) {
            return Device(
                name: name, user: user, secretHash: hash.flatMap { DeviceSecret.Hash(bytes: Array($0.readableBytesView)) },
                secretHint: hint, createdAt: Timestamp(date: created))
        }
        return nil
    }
}
