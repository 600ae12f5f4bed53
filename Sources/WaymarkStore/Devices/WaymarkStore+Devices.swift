import Foundation
import GRDB
import WaymarkCore
import WaymarkDevices

extension WaymarkStore {
    /// Adds a device. Throws `.duplicateIdentifier` when one of that name exists, and
    /// `.invalidRecord` for a name or user that is not a short name.
    public func addDevice(_ device: Device) throws {
        for (field, value) in [("name", device.name), ("user", device.user)] {
            if let problem = DeviceName.problem(with: value) {
                throw StoreError(code: .invalidRecord, message: "\(field): \(problem)", identifiers: [device.name])
            }
        }
        try writeHistory(synchronous: .full, doing: "adding device \(device.name)") { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM devices WHERE name = ?", arguments: [device.name]) == true {
                throw StoreError(code: .duplicateIdentifier, message: "a device named '\(device.name)' exists", identifiers: [device.name])
            }
            try db.execute(
                sql: "INSERT INTO devices (name, user, secret_hash, secret_hint, created_ns) VALUES (?, ?, ?, ?, ?)",
                arguments: [device.name, device.user, device.secretHash.map { Data($0.bytes) }, device.secretHint, device.createdAt.nanosecondsSince1970])
        }
    }

    /// Adds a device with a new secret and returns both: the only time the secret is seen.
    public func addDevice(name: String, user: String?, at time: Timestamp) throws -> (Device, DeviceSecret) {
        let secret = DeviceSecret.generate()
        let device = Device(name: name, user: user, secretHash: secret.hash, secretHint: secret.hint, createdAt: time)
        try addDevice(device)
        return (device, secret)
    }

    /// Gives the device a new secret and returns both; nil when there is no such device.
    public func newDeviceSecret(device name: String) throws -> (Device, DeviceSecret)? {
        let secret = DeviceSecret.generate()
        guard try setDeviceSecret(secret, device: name), let device = try device(named: name) else { return nil }
        return (device, secret)
    }

    /// Every device, by name.
    public func devices() throws -> [Device] {
        try readDevices { db in try Row.fetchAll(db, sql: "\(Self.deviceColumns) ORDER BY name").map(Self.device) }
    }

    /// The device of this name, if any.
    public func device(named name: String) throws -> Device? {
        try readDevices { db in try Row.fetchOne(db, sql: "\(Self.deviceColumns) WHERE name = ?", arguments: [name]).map(Self.device) }
    }

    /// The device whose secret has this hash, if any.
    public func device(withSecret hash: DeviceSecret.Hash) throws -> Device? {
        try readDevices { db in
            try Row.fetchOne(db, sql: "\(Self.deviceColumns) WHERE secret_hash = ?", arguments: [Data(hash.bytes)]).map(Self.device)
        }
    }

    /// Gives the device a new secret (the old one stops working at once); false when there is
    /// no such device. `local` cannot have one: it is not fed over the network.
    @discardableResult
    public func setDeviceSecret(_ secret: DeviceSecret, device name: String) throws -> Bool {
        guard name != Device.localName else {
            throw StoreError(code: .invalidRecord, message: "'local' is the gpsd receiver: it takes no secret", identifiers: [name])
        }
        return try writeHistory(synchronous: .full, doing: "changing the secret of device \(name)") { db in
            try db.execute(
                sql: "UPDATE devices SET secret_hash = ?, secret_hint = ? WHERE name = ?",
                arguments: [Data(secret.hash.bytes), secret.hint, name])
            return db.changesCount > 0
        }
    }

    /// Removes a device; false when there was none. Its history stays (docs/devices.md).
    @discardableResult
    public func removeDevice(named name: String) throws -> Bool {
        guard name != Device.localName else {
            throw StoreError(code: .invalidRecord, message: "'local' is the gpsd receiver and cannot be removed", identifiers: [name])
        }
        return try writeHistory(synchronous: .full, doing: "removing device \(name)") { db in
            try db.execute(sql: "DELETE FROM devices WHERE name = ?", arguments: [name])
            return db.changesCount > 0
        }
    }

    private func readDevices<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch {
            throw StoreError(code: .database, message: "reading devices: \(Self.describe(error))", path: path)
        }
    }

    private static let deviceColumns = "SELECT name, user, secret_hash, secret_hint, created_ns FROM devices"

    private static func device(_ row: Row) -> Device {
        let hash: Data? = row["secret_hash"]
        return Device(
            name: row["name"], user: row["user"], secretHash: hash.flatMap { DeviceSecret.Hash(bytes: Array($0)) },
            secretHint: row["secret_hint"], createdAt: Timestamp(nanosecondsSince1970: row["created_ns"]))
    }
}
