import Foundation
import PostgresNIO
import WaymarkCore
import WaymarkDevices
import WaymarkStore

extension FleetDatabase {
    /// Every device, by name.
    public func devices() async throws -> [Device] {
        var devices: [Device] = []
        let rows = try await client.query(
            "SELECT name, \"user\", secret_hash, secret_hint, created_at FROM devices ORDER BY name", logger: logger)
        for try await (name, user, hash, hint, created) in rows.decode((String, String, ByteBuffer?, String?, Date).self) {
            devices.append(
                Device(
                    name: name, user: user, secretHash: hash.flatMap { DeviceSecret.Hash(bytes: Array($0.readableBytesView)) },
                    secretHint: hint, createdAt: Timestamp(date: created)))
        }
        return devices
    }

    /// Adds a device with a new secret, as the single daemon's store does: the same name rules,
    /// `StoreError.duplicateIdentifier` when the name is taken. Returns the secret, seen once.
    public func addDevice(name: String, user: String?, at time: Timestamp) async throws -> (Device, DeviceSecret) {
        let secret = DeviceSecret.generate()
        let device = Device(name: name, user: user, secretHash: secret.hash, secretHint: secret.hint, createdAt: time)
        for (field, value) in [("name", device.name), ("user", device.user)] {
            if let problem = DeviceName.problem(with: value) {
                throw StoreError(code: .invalidRecord, message: "\(field): \(problem)", identifiers: [device.name])
            }
        }
        let hash = ByteBuffer(bytes: secret.hash.bytes)
        let rows = try await client.query(
            """
            INSERT INTO devices (name, "user", secret_hash, secret_hint, created_at)
            VALUES (\(device.name), \(device.user), \(hash), \(device.secretHint), \(time.date))
            ON CONFLICT (name) DO NOTHING RETURNING 1
            """, logger: logger)
        var inserted = false
        for try await _ in rows { inserted = true }
        guard inserted else {
            throw StoreError(code: .duplicateIdentifier, message: "a device named '\(name)' exists", identifiers: [name])
        }
        return (device, secret)
    }

    /// Gives the device a new secret (the old one stops working at the next request an ingest
    /// node authenticates); nil when there is no such device.
    public func newDeviceSecret(name: String) async throws -> (Device, DeviceSecret)? {
        let secret = DeviceSecret.generate()
        let hash = ByteBuffer(bytes: secret.hash.bytes)
        try await client.query(
            "UPDATE devices SET secret_hash = \(hash), secret_hint = \(secret.hint) WHERE name = \(name)", logger: logger)
        return try await device(named: name).map { ($0, secret) }
    }

    /// Removes a device (its history stays, as in the single daemon); false when there was none.
    public func removeDevice(name: String) async throws -> Bool {
        var removed = false
        for try await _ in try await client.query("DELETE FROM devices WHERE name = \(name) RETURNING 1", logger: logger) { removed = true }
        return removed
    }
}
